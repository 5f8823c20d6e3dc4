package dev.engram.documents.rest;

import static dev.engram.rest.Api.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.rest.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A memory tool call sent again under its Idempotency-Key, after a lost answer or racing the first, edits the file
 * once: the retry is answered the first answer, marked replayed, and the journal holds one version.
 */
@QuarkusTest
class MemoryToolRetriesTest {

    static final String INSERT = "{\"command\":\"insert\",\"path\":\"/memories/log.md\",\"insert_line\":1,"
            + "\"insert_text\":\"- a new line\"}";

    private static Response send(String store, String key, String input) {
        return json().header("Idempotency-Key", key).body(input).post(MemoryToolApiTest.route(store));
    }

    private static String file(String store) {
        return MemoryToolApiTest.call(store, "{\"command\":\"view\",\"path\":\"/memories/log.md\"}")
                .getString("content");
    }

    private static List<String> kinds(String store) {
        return json().get("/v1/stores/" + store + "/journal").then().statusCode(200).extract().path("records.kind");
    }

    private static String created(String store) {
        MemoryToolApiTest.call(store, "{\"command\":\"create\",\"path\":\"/memories/log.md\",\"file_text\":"
                + "\"# Log\\n- first\"}");
        return file(store);
    }

    @Test
    void anInsertSentTwiceUnderOneKeyInsertsOnce() {
        String s = Api.newStore();
        created(s);
        Response first = send(s, "insert-1", INSERT);
        Response again = send(s, "insert-1", INSERT);

        assertEquals(200, first.statusCode(), first.asString());
        assertEquals(200, again.statusCode(), again.asString());
        assertEquals(first.asString(), again.asString());
        assertEquals("true", again.header("Idempotent-Replayed"));
        assertEquals(null, first.header("Idempotent-Replayed"));
        assertEquals("Here's the content of /memories/log.md with line numbers:\n     1\t# Log\n     2\t- a new line\n"
                + "     3\t- first", file(s));
        assertEquals(List.of("document.created", "document.modified"), kinds(s));
    }

    @Test
    void retriesRacingTheFirstCallEditOnceAndAllAnswerTheSame() throws Exception {
        String s = Api.newStore();
        created(s);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Callable<Response>> calls = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                calls.add(() -> send(s, "racing", INSERT));
            }
            List<String> bodies = new ArrayList<>();
            int replayed = 0;
            for (Future<Response> f : pool.invokeAll(calls)) {
                Response r = f.get();
                assertEquals(200, r.statusCode(), r.asString());
                bodies.add(r.asString());
                replayed += "true".equals(r.header("Idempotent-Replayed")) ? 1 : 0;
            }
            assertEquals(1, bodies.stream().distinct().count(), bodies.toString());
            assertEquals(5, replayed);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(List.of("document.created", "document.modified"), kinds(s));
    }

    @Test
    void aKeySentWithAnotherCallIsRefusedAndWritesNothing() {
        String s = Api.newStore();
        String before = created(s);
        send(s, "k-1", "{\"command\":\"view\",\"path\":\"/memories\"}").then().statusCode(200);
        send(s, "k-1", INSERT).then().statusCode(422)
                .body("type", org.hamcrest.Matchers.endsWith("idempotency-key-reused"));
        assertEquals(before, file(s));
        assertEquals(List.of("document.created"), kinds(s));
    }

    @Test
    void anErrorAnswerUnderAKeyIsReplayedAndAnEditThatFailedLeavesNoVersion() {
        String s = Api.newStore();
        created(s);
        String missing = "{\"command\":\"str_replace\",\"path\":\"/memories/log.md\",\"old_str\":\"absent\","
                + "\"new_str\":\"x\"}";
        Response first = send(s, "miss", missing);
        first.then().statusCode(200).body("is_error", org.hamcrest.Matchers.is(true));
        Response again = send(s, "miss", missing);
        assertEquals(first.asString(), again.asString());
        assertEquals("true", again.header("Idempotent-Replayed"));
        assertEquals(List.of("document.created"), kinds(s));
    }

    @Test
    void aDirectoryRenameUnderAKeyMovesEveryFileOnce() {
        String s = Api.newStore();
        for (String f : List.of("a", "b")) {
            MemoryToolApiTest.call(s, "{\"command\":\"create\",\"path\":\"/memories/old/" + f + ".md\","
                    + "\"file_text\":\"" + f + "\"}");
        }
        String rename = "{\"command\":\"rename\",\"old_path\":\"/memories/old\",\"new_path\":\"/memories/new\"}";
        send(s, "mv", rename).then().statusCode(200).body("is_error", org.hamcrest.Matchers.is(false));
        send(s, "mv", rename).then().statusCode(200).header("Idempotent-Replayed", "true")
                .body("is_error", org.hamcrest.Matchers.is(false));
        assertEquals(List.of("document.created", "document.created", "document.modified", "document.modified"),
                kinds(s));
        assertEquals("a", MemoryToolApiTest.call(s, "{\"command\":\"view\",\"path\":\"/memories/new/a.md\"}")
                .getString("content").substring("Here's the content of /memories/new/a.md with line numbers:\n"
                        .length()).trim().split("\t")[1]);
    }
}
