package dev.engram.rest;

import static dev.engram.rest.Api.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.PartlyShutDown;
import dev.engram.TestAuth;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What the streams see when this replica shuts down, in process: Quarkus fires {@link ShutdownDelayInitiatedEvent}
 * as readiness goes down, and with the tests' delay of 0 s the delay is over at once. A journal follower is sent a
 * {@code reconnect} event naming the last seq it was sent and its stream ends; an MCP event stream ends; new ones are
 * refused with 503 and Retry-After; other requests are still served. (The real SIGTERM, the delay and readiness
 * are checked over a packaged replica in {@code dev.engram.faults.GracefulShutdownIT}.)
 */
@QuarkusTest
@TestProfile(PartlyShutDown.class)
class ShutdownStreamsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URI base;

    @Inject
    Event<ShutdownDelayInitiatedEvent> shutdownBegins;

    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void streamsEndWithWhereToResumeAndNewOnesAreRefused() throws Exception {
        String s = Api.newStore();
        put(s, "user", "one", "{\"content\":\"1\"}").then().statusCode(201);
        put(s, "user", "two", "{\"content\":\"2\"}").then().statusCode(201);
        URI journal = base.resolve("/v1/stores/" + s + "/journal?after=0");
        Stream follower = Stream.open(client, journal, "text/event-stream");
        Stream idle = Stream.open(client, base.resolve("/v1/stores/" + s + "/journal?after=2"), "text/event-stream");
        Stream mcp = Stream.open(client, base.resolve("/mcp/sse"), "text/event-stream");
        assertEquals("1", follower.next().id());
        assertEquals("2", follower.next().id());
        assertEquals("endpoint", mcp.next().name(), "the legacy MCP stream is open");

        shutdownBegins.fire(new ShutdownDelayInitiatedEvent());

        Sse farewell = follower.next();
        assertEquals("reconnect", farewell.name());
        assertNull(farewell.id(), "the reconnect event has no id: Last-Event-ID stays the last record's seq");
        assertEquals("1000", farewell.retry());
        JsonNode data = JSON.readTree(farewell.data());
        assertEquals("shutting-down", data.get("reason").asText());
        assertEquals(2, data.get("last_seq").asLong(), "the last record it was sent");
        assertEquals(1000, data.get("retry_ms").asLong());
        assertTrue(follower.ended(), "nothing follows the reconnect event: the stream ends");

        Sse idleFarewell = idle.next();
        assertEquals("reconnect", idleFarewell.name());
        assertEquals(2, JSON.readTree(idleFarewell.data()).get("last_seq").asLong(),
                "a follower sent no record yet resumes where it began");
        assertTrue(idle.ended());
        assertTrue(mcp.ended(), "the MCP event stream ends");

        for (URI refused : List.of(journal, base.resolve("/mcp/sse"))) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(refused).header("Accept", "text/event-stream")
                    .header("Authorization", "Bearer " + TestAuth.OPERATOR_KEY).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(503, r.statusCode(), refused + ": " + r.body());
            assertEquals("1", r.headers().firstValue("Retry-After").orElse(""));
            assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
            JsonNode problem = JSON.readTree(r.body());
            assertEquals("https://engram.dev/problems/busy", problem.get("type").asText());
            assertEquals("shutting-down", problem.get("limit").asText());
        }
        put(s, "user", "three", "{\"content\":\"3\"}").then().statusCode(201);
        io.restassured.RestAssured.given().get("/v1/stores/" + s + "/journal?after=2").then().statusCode(200);
    }

    /** One server-sent event: its name, id and retry when it has them, and its data. */
    record Sse(String name, String id, String retry, String data) {
    }

    /** The events of one stream as they arrive, then its end. */
    static final class Stream {
        private static final Sse END = new Sse("", null, null, "");
        private static final Sse CUT = new Sse("", null, null, "");
        private final BlockingQueue<Sse> events = new LinkedBlockingQueue<>();

        static Stream open(HttpClient client, URI uri, String accept) throws Exception {
            HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(uri).header("Accept", accept)
                    .header("Authorization", "Bearer " + TestAuth.OPERATOR_KEY).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertEquals(200, r.statusCode(), uri.toString());
            Stream s = new Stream();
            Thread reader = new Thread(() -> s.read(r.body()));
            reader.setDaemon(true);
            reader.start();
            return s;
        }

        private void read(InputStream body) {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
                Map<String, String> fields = new HashMap<>();
                List<String> data = new ArrayList<>();
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.isEmpty()) {
                        if (!data.isEmpty()) {
                            events.add(new Sse(fields.getOrDefault("event", "message"), fields.get("id"),
                                    fields.get("retry"), String.join("\n", data)));
                        }
                        fields.clear();
                        data.clear();
                    } else if (!line.startsWith(":")) {
                        int colon = line.indexOf(':');
                        String field = colon < 0 ? line : line.substring(0, colon);
                        String value = colon < 0 ? "" : line.substring(colon + 1).replaceFirst("^ ", "");
                        if (field.equals("data")) {
                            data.add(value);
                        } else {
                            fields.put(field, value);
                        }
                    }
                }
                events.add(END);
            } catch (java.io.IOException cut) {
                events.add(CUT);
            }
        }

        Sse next() throws InterruptedException {
            Sse e = events.poll(10, TimeUnit.SECONDS);
            if (e == null || e == END || e == CUT) {
                throw new AssertionError(e == null ? "no event within 10 s" : "the stream ended");
            }
            return e;
        }

        /** Whether the stream ends cleanly (within 10 s, not cut off) with no further event. */
        boolean ended() throws InterruptedException {
            return events.poll(10, TimeUnit.SECONDS) == END;
        }
    }
}
