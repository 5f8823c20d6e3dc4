package dev.engram.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
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

    /** Sends {@code head} as it is and reads the answer until the server closes or pauses. */
    static String raw(URI base, String head) throws IOException {
        try (Socket s = new Socket(base.getHost(), base.getPort())) {
            s.setSoTimeout(5000);
            s.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            InputStream in = s.getInputStream();
            byte[] buffer = new byte[4096];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    got.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException e) {
                // kept open: what came is the answer
            }
            return got.toString(StandardCharsets.UTF_8);
        }
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
