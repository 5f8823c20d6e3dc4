package dev.engram.ops;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Bodies are read whole before a resource runs: one still incomplete when {@code engram.http.body-timeout} (10 s)
 * has passed is answered 408 and dropped, and one sent in chunks is refused with 413 once it passes the limit.
 */
@QuarkusTest
class RequestBodiesTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void aBodyStillIncompleteAtTheDeadlineIsAnswered408AndItsConnectionClosed() throws Exception {
        try (Socket s = SlowClientsTest.trickler(base, "late")) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            byte[] answer = new byte[4096];
            int n = 0;
            try {
                // keep trickling until the server answers or closes, for at most two minutes
                for (int second = 0; second < 120 && n == 0; second++) {
                    out.write(' ');
                    out.flush();
                    if (in.available() > 0) {
                        n = in.read(answer);
                    }
                    Thread.sleep(1000);
                }
            } catch (IOException closed) {
                n = -1;
            }
            assertTrue(n != 0, "the server neither answered nor closed the connection in two minutes");
            if (n > 0) {
                StringBuilder reply = new StringBuilder(new String(answer, 0, n, StandardCharsets.US_ASCII));
                s.setSoTimeout(30_000);
                try {
                    for (int r; (r = in.read(answer)) >= 0; ) {
                        reply.append(new String(answer, 0, r, StandardCharsets.US_ASCII));
                    }
                } catch (IOException reset) {
                    // closed after the answer: what is expected
                }
                assertTrue(reply.toString().startsWith("HTTP/1.1 408"), reply.toString());
                assertTrue(reply.toString().contains("https://engram.dev/problems/body-timeout"), reply.toString());
            }
        }
    }

    @Test
    void aChunkedBodyOverTheLimitIsRefusedWith413AndWritesNothing() throws Exception {
        String path = "/v1/stores/chunked/scopes/user/entries/big";
        try (Socket s = new Socket(base.getHost(), base.getPort())) {
            s.setSoTimeout(60_000);
            OutputStream out = s.getOutputStream();
            out.write(("PUT " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Authorization: Bearer " + dev.engram.TestAuth.OPERATOR_KEY + "\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] chunk = ("{\"content\":\"" + "x".repeat(16 * 1024)).getBytes(StandardCharsets.US_ASCII);
            InputStream in = s.getInputStream();
            try {
                // 16 KiB chunks up to 2 MiB; past the 1 MiB limit, slowly, to read the answer before writing on
                for (int i = 0; i < 128 && in.available() == 0; i++) {
                    out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(chunk);
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    if (i > 60) {
                        Thread.sleep(200);
                    }
                }
            } catch (IOException closed) {
                // the server may close before the client is done writing
            }
            StringBuilder reply = new StringBuilder();
            byte[] answer = new byte[4096];
            try {
                for (int r; reply.indexOf("}") < 0 && (r = in.read(answer)) >= 0; ) {
                    reply.append(new String(answer, 0, r, StandardCharsets.US_ASCII));
                }
            } catch (IOException reset) {
                // read what came before the close
            }
            assertTrue(reply.toString().startsWith("HTTP/1.1 413"), reply.toString());
            assertTrue(reply.toString().contains("https://engram.dev/problems/body-too-large"), reply.toString());
        }
        given().get(path).then().statusCode(404);
    }

    @Test
    void aClientThatWaitsFor100ContinueIsToldToSendItsBody() throws Exception {
        byte[] body = "{\"content\":\"sent after 100 Continue\"}".getBytes(StandardCharsets.US_ASCII);
        try (Socket s = new Socket(base.getHost(), base.getPort())) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(("PUT /v1/stores/continued/scopes/user/entries/a HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer " + dev.engram.TestAuth.OPERATOR_KEY + "\r\n"
                    + "Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] answer = new byte[4096];
            int n = in.read(answer);
            String interim = new String(answer, 0, n, StandardCharsets.US_ASCII);
            assertTrue(interim.startsWith("HTTP/1.1 100"), interim);
            out.write(body);
            out.flush();
            StringBuilder reply = new StringBuilder(interim.substring(interim.indexOf("\r\n\r\n") + 4));
            for (int r; reply.indexOf("\r\n\r\n") < 0 && (r = in.read(answer)) >= 0; ) {
                reply.append(new String(answer, 0, r, StandardCharsets.US_ASCII));
            }
            assertTrue(reply.toString().contains("HTTP/1.1 201"), reply.toString());
        }
        given().get("/v1/stores/continued/scopes/user/entries/a").then().statusCode(200);
    }
}
