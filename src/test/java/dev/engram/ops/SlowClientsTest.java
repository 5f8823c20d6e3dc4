package dev.engram.ops;

import dev.engram.ConfigProfile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Clients that send a body one byte a second hold no worker thread: while 200 of them trickle (more than the
 * worker pool), other requests are answered. The body deadline is two minutes here, so the tricklers are still
 * there when the other requests are answered, however slow the machine; {@link RequestBodiesTest} tests the deadline.
 */
@QuarkusTest
@TestProfile(SlowClientsTest.LongBodyDeadline.class)
class SlowClientsTest {

    static final int TRICKLERS = 200;

    /** A deadline far beyond the test, so that nothing but a free worker can answer the other requests. */
    public static final class LongBodyDeadline extends ConfigProfile {
        public LongBodyDeadline() {
            super(Map.of("engram.http.body-timeout", "120s"));
        }
    }

    @TestHTTPResource("/")
    URI base;

    /** Opens a connection and sends the headers of a PUT whose 1000-byte body has barely begun. */
    static Socket trickler(URI base, String name) throws IOException {
        Socket s = new Socket(base.getHost(), base.getPort());
        OutputStream out = s.getOutputStream();
        out.write(("PUT /v1/stores/slow/scopes/user/entries/" + name + " HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer " + dev.engram.TestAuth.OPERATOR_KEY + "\r\n"
                + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return s;
    }

    @Test
    void twoHundredTricklingBodiesDoNotStopOtherRequests() throws Exception {
        List<Socket> sockets = new ArrayList<>();
        ScheduledExecutorService drip = Executors.newSingleThreadScheduledExecutor();
        try {
            for (int i = 0; i < TRICKLERS; i++) {
                sockets.add(trickler(base, "n-" + i));
            }
            drip.scheduleAtFixedRate(() -> {
                for (Socket s : sockets) {
                    try {
                        s.getOutputStream().write(' ');
                        s.getOutputStream().flush();
                    } catch (IOException e) {
                        // the test is over
                    }
                }
            }, 1, 1, TimeUnit.SECONDS);
            Thread.sleep(2000);

            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(60)).build();
            String path = "/v1/stores/prompt/scopes/user/entries/a";
            HttpResponse<String> put = http.send(HttpRequest.newBuilder(base.resolve(path))
                    .header("Authorization", "Bearer " + dev.engram.TestAuth.OPERATOR_KEY)
                    .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"content\":\"answered\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(put.statusCode() == 200 || put.statusCode() == 201, put.body());
            HttpResponse<String> get = http.send(HttpRequest.newBuilder(base.resolve(path))
                    .header("Authorization", "Bearer " + dev.engram.TestAuth.OPERATOR_KEY)
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, get.statusCode(), get.body());
            for (Socket s : sockets) {
                assertEquals(0, s.getInputStream().available(), "the tricklers are still waiting to be answered");
            }
        } finally {
            drip.shutdownNow();
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
