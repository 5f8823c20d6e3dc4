package dev.engram.journal.rest;

import dev.engram.rest.Api;
import static dev.engram.rest.Api.put;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The journal over HTTP: a JSON page, NDJSON, and server-sent events followed live and resumed. */
@QuarkusTest
public class JournalApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URI base;

    private static String seed(int writes) {
        String s = Api.newStore();
        for (int i = 1; i <= writes; i++) {
            put(s, "user", "n" + i, "{\"content\":\"v" + i + "\"}").then().statusCode(201);
        }
        return s;
    }

    /**
     * A memory's, a context's and an entry's records each name who wrote them: the key the request was made with, as
     * the journal's JSON says ({@code by}); the operator's are {@code operator}.
     */
    @Test
    void recordsOfEveryTierNameTheirWriter() {
        String s = Api.newStore();
        var issued = given().contentType("application/json").body("{\"name\": \"journal-writer\", \"grants\": "
                + "[{\"stores\": \"" + s + "\", \"role\": \"write\"}]}").post("/v1/keys").then().statusCode(201)
                .extract().jsonPath();
        String key = issued.getString("key");
        String id = issued.getString("id");
        assertTrue(id != null && !id.isEmpty(), issued.prettify());
        java.util.function.Supplier<io.restassured.specification.RequestSpecification> writer = () -> given()
                .header("Authorization", "Bearer " + key).contentType("application/json");
        writer.get().body("{\"content\": \"v1\"}").put(Api.entry(s, "user", "style")).then().statusCode(201);
        writer.get().body("{\"id\": \"m1\", \"bank\": \"team\", \"type\": \"fact\", \"content\": \"Deploys on "
                + "Tuesdays.\"}").post("/v1/stores/" + s + "/memories").then().statusCode(201);
        writer.get().body("{}").put("/v1/stores/" + s + "/contexts/run-1").then().statusCode(201);
        writer.get().body("{\"steps\": [{\"thought\": \"look\", \"observation\": \"seen\"}]}")
                .post("/v1/stores/" + s + "/contexts/run-1/steps").then().statusCode(200);
        given().contentType("application/json").body("{\"reason\": \"moved\"}")
                .post("/v1/stores/" + s + "/memories/m1/archive").then().statusCode(200);
        var records = given().get("/v1/stores/" + s + "/journal").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(id, id, id, id, "operator"), records.getList("records.by"), records.prettify());
    }

    @Test
    void jsonPagesReadAfterTheCursorExclusively() {
        String s = seed(5);
        given().get("/v1/stores/" + s + "/journal?after=1&limit=2").then().statusCode(200)
                .contentType("application/json")
                .body("records.seq", contains(2, 3))
                .body("next", equalTo(3))
                .body("more", equalTo(true));
        given().get("/v1/stores/" + s + "/journal?after=3").then()
                .body("records.seq", contains(4, 5)).body("next", equalTo(5)).body("more", equalTo(false));
        given().get("/v1/stores/" + s + "/journal?after=5").then()
                .body("records.size()", equalTo(0)).body("next", equalTo(5));
        given().accept("*/*").get("/v1/stores/" + s + "/journal").then().contentType("application/json");
    }

    @Test
    void ndjsonStreamsOneRecordALineToTheEnd() throws Exception {
        String s = seed(3);
        String body = given().accept("application/x-ndjson").get("/v1/stores/" + s + "/journal?after=1")
                .then().statusCode(200).contentType("application/x-ndjson").extract().asString();
        String[] lines = body.split("\n");
        assertEquals(2, lines.length, body);
        assertEquals(2, JSON.readTree(lines[0]).get("seq").asInt());
        assertEquals("v3", JSON.readTree(lines[1]).path("entry").path("content").asText());
    }

    @Test
    void eventsFollowLiveAndResumeAfterLastEventId() throws Exception {
        String s = seed(2);
        HttpClient client = HttpClient.newHttpClient();
        Events first = Events.open(client, base.resolve("/v1/stores/" + s + "/journal?after=0"), null);
        try {
            assertEquals(List.of(1L, 2L), first.ids(2));
            put(s, "user", "live", "{\"content\":\"written while followed\"}").then().statusCode(201);
            JsonNode live = first.next();
            assertEquals(3, live.get("seq").asInt());
            assertEquals("written while followed", live.path("entry").path("content").asText());
        } finally {
            first.close();
        }
        put(s, "user", "missed", "{\"content\":\"written while away\"}").then().statusCode(201);
        Events resumed = Events.open(client, base.resolve("/v1/stores/" + s + "/journal"), "3");
        try {
            JsonNode missed = resumed.next();
            assertEquals(4, missed.get("seq").asInt(), "resumes after Last-Event-ID, exclusive");
            assertEquals("written while away", missed.path("entry").path("content").asText());
            assertTrue(resumed.nothingWithin(Duration.ofMillis(700)), "no record is sent twice");
        } finally {
            resumed.close();
        }
    }

    /** A minimal server-sent events reader over java.net.http. */
    public static final class Events {
        private final BlockingQueue<String[]> events = new LinkedBlockingQueue<>();
        private final CompletableFuture<HttpResponse<Stream<String>>> response;

        private Events(CompletableFuture<HttpResponse<Stream<String>>> response) {
            this.response = response;
        }

        public static Events open(HttpClient client, URI uri, String lastEventId) throws Exception {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).header("Accept", "text/event-stream")
                    .header("Authorization", "Bearer " + dev.engram.TestAuth.OPERATOR_KEY);
            if (lastEventId != null) {
                request.header("Last-Event-ID", lastEventId);
            }
            CompletableFuture<HttpResponse<Stream<String>>> future =
                    client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofLines());
            Events e = new Events(future);
            HttpResponse<Stream<String>> r = future.get(10, TimeUnit.SECONDS);
            assertEquals(200, r.statusCode());
            Thread reader = new Thread(() -> {
                String id = null;
                String data = null;
                Iterator<String> lines = r.body().iterator();
                while (lines.hasNext()) {
                    String line = lines.next();
                    if (line.startsWith("id:")) {
                        id = line.substring(3).trim();
                    } else if (line.startsWith("data:")) {
                        data = line.substring(5).trim();
                    } else if (line.isEmpty() && data != null) {
                        e.events.add(new String[] {id, data});
                        id = null;
                        data = null;
                    }
                }
            });
            reader.setDaemon(true);
            reader.start();
            return e;
        }

        public JsonNode next() throws Exception {
            String[] event = events.poll(10, TimeUnit.SECONDS);
            if (event == null) {
                throw new AssertionError("no event within 10 s");
            }
            JsonNode record = JSON.readTree(event[1]);
            assertEquals(event[0], record.get("seq").asText(), "the event id is the record's seq");
            return record;
        }

        List<Long> ids(int n) throws Exception {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ids.add(next().get("seq").asLong());
            }
            return ids;
        }

        boolean nothingWithin(Duration d) throws InterruptedException {
            return events.poll(d.toMillis(), TimeUnit.MILLISECONDS) == null;
        }

        public void close() {
            response.thenAccept(r -> r.body().close());
        }
    }
}
