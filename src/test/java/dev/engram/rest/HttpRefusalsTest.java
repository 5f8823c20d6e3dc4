package dev.engram.rest;

import dev.engram.problems.Problem;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import dev.engram.ErrorLog;

/**
 * What the HTTP layer refuses is answered as a problem by {@link HttpRefusals}: a request without Host is a 400
 * problem and logs nothing at ERROR; the operational endpoints refuse what they do not take with a 405 and Allow.
 */
@QuarkusTest
class HttpRefusalsTest {

    @TestHTTPResource("/")
    URI base;

    @RegisterExtension
    final ErrorLog errors = new ErrorLog();

    static String raw(URI base, String head) throws IOException {
        return RawHttp.untilPause(base, head);
    }
    @Test
    void aRequestWithoutHostIsA400ProblemAndNoError() throws Exception {
        String answer = raw(base, "GET /v1/stores/" + Api.newStore() + " HTTP/1.1\r\nAuthorization: Bearer "
                + dev.engram.TestAuth.OPERATOR_KEY + "\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
        assertTrue(answer.toLowerCase().contains("content-type: application/problem+json"), answer);
        assertTrue(answer.contains("\"type\":\"https://engram.dev/problems/host-missing\""), answer);
        assertEquals(List.of(), errors.records().stream().map(LogRecord::getMessage).toList(), "nothing logged at ERROR");
    }

    @Test
    void operationalEndpointsRefuseWritesWith405AndAllow() {
        for (String path : List.of("/q/health", "/q/health/ready", "/q/metrics")) {
            given().delete(path).then().statusCode(405).contentType(Problem.MEDIA_TYPE)
                    .header("Allow", "GET, HEAD")
                    .body("type", equalTo(Problem.TYPE_BASE + "method-not-allowed"));
            given().contentType("application/json").body("{}").post(path).then().statusCode(405)
                    .contentType(Problem.MEDIA_TYPE).header("Allow", "GET, HEAD");
        }
        given().get("/q/health").then().statusCode(200);
    }
}
