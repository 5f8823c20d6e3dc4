package dev.engram.rest;

import dev.engram.ConfigProfile;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A client that sends its request head a byte at a time is cut at {@code engram.http.header-timeout} (2 s here),
 * though each byte restarts the idle timeout: answered 408 with a problem and closed. A request sent at once is
 * served as before.
 */
@QuarkusTest
@TestProfile(HeadDeadlinesTest.ShortHeadDeadline.class)
class HeadDeadlinesTest {

    static final int TRICKLERS = 20;

    public static final class ShortHeadDeadline extends ConfigProfile {
        public ShortHeadDeadline() {
            super(Map.of("engram.http.header-timeout", "2s"));
        }
    }

    @TestHTTPResource("/")
    URI base;


    @Test
    void tricklingHeadsAreAnswered408AndClosedWhileOthersAreServed() throws Exception {
        given().get("/q/health/live").then().statusCode(200);
        List<Socket> sockets = new ArrayList<>();
        ScheduledExecutorService drip = Executors.newSingleThreadScheduledExecutor();
        try {
            for (int i = 0; i < TRICKLERS; i++) {
                Socket s = new Socket(base.getHost(), base.getPort());
                s.getOutputStream().write("GET /q/health/live HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
                        .getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                sockets.add(s);
            }
            drip.scheduleAtFixedRate(() -> {
                for (Socket s : sockets) {
                    try {
                        s.getOutputStream().write('a');
                        s.getOutputStream().flush();
                    } catch (IOException e) {
                        // closed by the server, as it should be
                    }
                }
            }, 300, 300, TimeUnit.MILLISECONDS);
            given().get("/q/health/live").then().statusCode(200);
            for (Socket s : sockets) {
                String answer = RawHttp.untilClosed(s);
                assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
                assertTrue(answer.contains("\"type\":\"https://engram.dev/problems/header-timeout\""), answer);
            }
        } finally {
            drip.shutdownNow();
            for (Socket s : sockets) {
                s.close();
            }
        }
    }

    @Test
    void theNextHeadOnAKeptAliveConnectionHasItsDeadlineToo() throws Exception {
        given().get("/q/health/live").then().statusCode(200);
        try (Socket s = new Socket(base.getHost(), base.getPort())) {
            s.getOutputStream().write("GET /q/health/live HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            s.setSoTimeout(60_000);
            InputStream in = s.getInputStream();
            byte[] buffer = new byte[8192];
            int n = in.read(buffer);
            String first = new String(buffer, 0, n, StandardCharsets.UTF_8);
            assertTrue(first.startsWith("HTTP/1.1 200 "), first);
            s.getOutputStream().write("GET /q/health".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            String second = RawHttp.untilClosed(s);
            assertTrue(second.isEmpty() || second.contains(" 408 "), second);
        }
        assertEquals(200, given().get("/q/health/live").statusCode());
    }
}
