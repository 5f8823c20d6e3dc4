package dev.engram.problems;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Budget;
import dev.engram.kernel.Conflict;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.KeyReused;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Scope;
import dev.engram.kernel.TooLarge;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotSupportedException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every mapping of the one error mapping, with the members a caller needs and nothing it must not see. */
class ProblemsTest {

    private static final Scope USER = new Scope("user");

    private static Map<String, Object> body(Problem p) {
        Map<String, Object> body = p.body("/v1/stores/s");
        String text = body.toString();
        assertFalse(text.contains("Exception"), text);
        assertFalse(text.contains("dev.engram"), text);
        assertFalse(text.contains("\tat "), text);
        return body;
    }

    @Test
    void notFoundIs404() {
        Problem p = Problems.problem(NotFound.entry(USER, "style"));
        assertEquals(404, p.status());
        assertEquals("https://engram.dev/problems/not-found", body(p).get("type"));
        assertEquals("/v1/stores/s", body(p).get("instance"));
    }

    @Test
    void invalidIs422WithRuleAndField() {
        Map<String, Object> body = body(Problems.problem(new Invalid("meta-size", "meta", "Meta takes 1100 bytes")));
        assertEquals(422, body.get("status"));
        assertEquals("meta-size", body.get("rule"));
        assertEquals("meta", body.get("field"));
    }

    @Test
    void tooLargeIs413WithSizeLimitAndStored() {
        Map<String, Object> body = body(Problems.problem(new TooLarge(USER, "style", 5000, 4096, 120)));
        assertEquals(413, body.get("status"));
        assertEquals(5000, body.get("size"));
        assertEquals(4096, body.get("limit"));
        assertEquals(120, body.get("stored"));
        assertTrue(body.get("detail").toString().contains("Trim it by at least 904 bytes"), body.toString());
    }

    @Test
    void conflictIs412WithWantAndHave() {
        Map<String, Object> body = body(Problems.problem(new Conflict(USER, "style", "sha256:a", "sha256:b")));
        assertEquals(412, body.get("status"));
        assertEquals("sha256:a", body.get("want"));
        assertEquals("sha256:b", body.get("have"));
    }

    @Test
    void budgetIs422WithTheBoundNeeded() {
        Map<String, Object> body = body(Problems.problem(new Budget(10, 103, "The bound of 10 bytes is too small")));
        assertEquals(422, body.get("status"));
        assertEquals("https://engram.dev/problems/render-budget", body.get("type"));
        assertEquals(103, body.get("needed"));
    }

    @Test
    void aReusedIdempotencyKeyIs422OfItsOwnType() {
        Map<String, Object> body = body(Problems.problem(new KeyReused("k-1")));
        assertEquals(422, body.get("status"));
        assertEquals("https://engram.dev/problems/idempotency-key-reused", body.get("type"));
        assertTrue(body.get("detail").toString().contains("k-1"), body.toString());
    }

    @Test
    void frameworkRefusalsKeepTheirStatus() {
        assertEquals(415, Problems.problem(new NotSupportedException()).status());
        assertEquals(405, Problems.problem(new NotAllowedException("GET")).status());
    }

    @Test
    void aContextChangedDuringItsCompactionIs409() {
        Map<String, Object> body = body(Problems.problem(new dev.engram.kernel.ContextChanged("it was reconfigured")));
        assertEquals(409, body.get("status"));
        assertEquals("https://engram.dev/problems/context-changed", body.get("type"));
        assertTrue(body.get("detail").toString().contains("(it was reconfigured)"), body.toString());
    }

    @Test
    void aLostDatabaseIs503WithRetryAfter() {
        Problem p = Problems.problem(new RuntimeException("wrapped",
                new SQLTransientConnectionException("Connection refused", "08001")));
        assertEquals(503, p.status());
        assertEquals("2", p.headers().get("Retry-After"));
        String detail = body(p).get("detail").toString();
        assertFalse(detail.contains("nothing was written"), "a connection can drop after the commit: " + detail);
        assertTrue(detail.contains("may or may not have landed"), detail);
        assertTrue(detail.contains("same Idempotency-Key"), detail);
        assertTrue(detail.contains("If-Match"), detail);
        Problem pool = Problems.problem(new SQLException("Acquisition timeout while waiting for new connection"));
        assertEquals(503, pool.status());
    }

    @Test
    void anythingElseIs500WithAnIdAndNoDetailOfTheCause() {
        Problem p = Problems.problem(new IllegalStateException("secret internal detail"));
        Map<String, Object> body = body(p);
        assertEquals(500, p.status());
        assertFalse(body.toString().contains("secret"), body.toString());
        assertTrue(body.get("detail").toString().contains(body.get("error_id").toString()));
    }
}
