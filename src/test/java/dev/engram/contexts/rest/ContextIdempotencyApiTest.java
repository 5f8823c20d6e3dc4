package dev.engram.contexts.rest;

import dev.engram.rest.Sql;
import dev.engram.rest.Api;
import dev.engram.rest.KeyRace;
import dev.engram.rest.IdempotencyKeys;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Idempotency-Key on every write route: each context change sent twice under one key is answered twice with the
 * first answer (status and body) and written once; the same key with another request is 422; two racing retries of
 * an append make one step; every other write refuses a key (422 {@code idempotency-key-not-taken}) and writes
 * nothing; the pure computations ignore one. What was written is read straight from PostgreSQL.
 */
@QuarkusTest
class ContextIdempotencyApiTest {

    private static final String KEY = "Idempotency-Key";

    @Inject
    AgroalDataSource db;

    /** One write: its method, the path after the context's, its body (null: none). */
    private record Write(String method, String suffix, String body) {
    }

    private static final String STEP = "{\"steps\": [{\"thought\": \"look\", \"action\": {\"id\": \"c1\", \"name\": "
            + "\"read_file\", \"input\": {\"path\": \"a.txt\"}}, \"observation\": \"line1\", \"cache\": true}]}";

    /** Every context write, in an order each can land in, the delete last. */
    private static final List<Write> WRITES = List.of(
            new Write("PUT", "", ContextApiTest.CONFIG.replace("\"keep_last\": 1}", "\"keep_last\": 2}")),
            new Write("PUT", "/system-prompt", "{\"text\": \"You are careful.\"}"),
            new Write("PUT", "/plan", "{\"text\": \"1. read 2. fix\"}"),
            new Write("PUT", "/task", "{\"text\": \"Fix the build.\"}"),
            new Write("PUT", "/prior-conversation", "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"),
            new Write("PUT", "/interjection", "{\"text\": \"stop and report\"}"),
            new Write("DELETE", "/interjection", null),
            new Write("POST", "/steps", STEP),
            new Write("POST", "/steps", STEP.replace("look", "again")),
            new Write("POST", "/steps?prompt=anthropic&compact=auto", STEP.replace("look", "loop")),
            new Write("PUT", "/steps", STEP.replace("look", "seeded")),
            new Write("POST", "/token-count", "{\"input_tokens\": 321}"),
            new Write("POST", "/tool-results", "{\"tool_name\": \"grep\", \"content\": \"found it\"}"),
            new Write("POST", "/compact", null),
            new Write("DELETE", "", null));

    private static Response send(String key, String method, String path, String body) {
        RequestSpecification r = key == null ? json() : json().header(KEY, key);
        if (body != null) {
            r = r.body(body);
        }
        return r.request(method, path);
    }

    private static String context(String store, String id) {
        return "/v1/stores/" + store + "/contexts/" + id;
    }

    @Test
    void everyContextWriteSentTwiceUnderOneKeyIsAnsweredTwiceAndWrittenOnce() throws Exception {
        String s = Api.newStore();
        String c = context(s, "run-1");
        Response created = send("k-create", "PUT", c, ContextApiTest.CONFIG);
        created.then().statusCode(201).header(IdempotencyKeys.REPLAYED, nullValue());
        Response again = send("k-create", "PUT", c, ContextApiTest.CONFIG);
        again.then().statusCode(201).header(IdempotencyKeys.REPLAYED, "true");
        assertEquals(created.asString(), again.asString(), "the first answer, byte for byte");
        assertEquals(1, journal(s));

        for (int i = 0; i < WRITES.size(); i++) {
            Write w = WRITES.get(i);
            String key = "k-" + i;
            long before = journal(s);
            Response first = send(key, w.method(), c + w.suffix(), w.body());
            assertEquals(w.method().equals("DELETE") && w.suffix().isEmpty() ? 204 : 200, first.statusCode(),
                    w + ": " + first.asString());
            first.then().header(IdempotencyKeys.REPLAYED, nullValue());
            long written = journal(s);
            assertEquals(before + 1, written, w + " wrote one record");

            Response retry = send(key, w.method(), c + w.suffix(), w.body());
            assertEquals(first.statusCode(), retry.statusCode(), w + ": " + retry.asString());
            retry.then().header(IdempotencyKeys.REPLAYED, "true");
            assertEquals(first.asString(), retry.asString(), w + " is answered with its first answer");
            assertEquals(first.contentType(), retry.contentType(), w + "'s Content-Type");
            assertEquals(written, journal(s), w + "'s retry wrote nothing");
            assertEquals(i + 2, count("select count(*) from idempotency where store_id = ?", s),
                    "each key recorded once");
        }
        assertEquals(0, count("select count(*) from context where store_id = ?", s));
        assertEquals(journal(s), count("select seq from store where id = ?", s), "the journal is gapless");
    }

    @Test
    void theSameKeyWithAnotherRequestIsRefusedAndWritesNothing() throws Exception {
        String s = Api.newStore();
        String c = context(s, "run-1");
        send(null, "PUT", c, ContextApiTest.CONFIG).then().statusCode(201);
        send("k-1", "POST", c + "/steps", STEP).then().statusCode(200);
        long before = journal(s);
        for (Write other : List.of(new Write("POST", "/steps", STEP.replace("look", "other")),
                new Write("PUT", "/steps", STEP), new Write("PUT", "/plan", "{\"text\": \"p\"}"),
                new Write("DELETE", "", null))) {
            send("k-1", other.method(), c + other.suffix(), other.body()).then().statusCode(422)
                    .contentType("application/problem+json")
                    .body("type", equalTo("https://engram.dev/problems/idempotency-key-reused"));
        }
        send("k-1", "PUT", Api.entry(s, "user", "style"), "{\"content\": \"x\"}").then().statusCode(422)
                .body("type", equalTo("https://engram.dev/problems/idempotency-key-reused"));
        assertEquals(before, journal(s));
        given().get(c + "/steps").then().statusCode(200).body("steps.size()", equalTo(1));
    }

    @Test
    void twoRacingRetriesOfAnAppendMakeOneStep() throws Exception {
        String s = Api.newStore();
        String c = context(s, "run-1");
        send(null, "PUT", c, ContextApiTest.CONFIG).then().statusCode(201);
        KeyRace.assertOneAnswer(4, 200, "one appended, the others were answered with its answer",
                () -> send("k-race", "POST", c + "/steps", STEP));
        given().get(c + "/steps").then().statusCode(200).body("steps.size()", equalTo(1));
        assertEquals(2, journal(s));
    }

    @Test
    void aChangeThatChangedNothingKeepsItsKeySoARetryStillChangesNothing() throws Exception {
        String s = Api.newStore();
        String c = context(s, "run-1");
        send(null, "PUT", c, ContextApiTest.CONFIG).then().statusCode(201);
        Response none = send("k-consume", "DELETE", c + "/interjection", null);
        none.then().statusCode(200).body("pending_interjection", equalTo(""));
        assertEquals(1, journal(s), "nothing was pending: no record, no seq");
        send(null, "PUT", c + "/interjection", "{\"text\": \"stop\"}").then().statusCode(200);

        Response retry = send("k-consume", "DELETE", c + "/interjection", null);
        retry.then().statusCode(200).header(IdempotencyKeys.REPLAYED, "true");
        assertEquals(none.asString(), retry.asString());
        given().get(c).then().statusCode(200).body("pending_interjection", equalTo("stop"));
        assertEquals(2, journal(s));
        assertEquals(journal(s), count("select seq from store where id = ?", s), "the journal is gapless");
    }

    @Test
    void aRefusedChangeRecordsNoKeyAndTheFixedRetryWrites() throws Exception {
        String s = Api.newStore();
        String c = context(s, "run-1");
        send("k-early", "POST", c + "/steps", STEP).then().statusCode(404);
        send("k-early", "POST", c + "/token-count", "{}").then().statusCode(422);
        assertEquals(0, count("select count(*) from idempotency where store_id = ?", s));
        send(null, "PUT", c, ContextApiTest.CONFIG).then().statusCode(201);
        send("k-early", "POST", c + "/steps", STEP).then().statusCode(200).header(IdempotencyKeys.REPLAYED,
                nullValue());
        given().get(c + "/steps").then().statusCode(200).body("steps.size()", equalTo(1));
    }

    @Test
    void everyOtherWriteRefusesAKeyAndWritesNothing() throws Exception {
        String s = Api.newStore();
        json().body("{\"id\": \"m-1\", \"content\": \"A fact.\"}").post("/v1/stores/" + s + "/memories").then()
                .statusCode(201);
        Api.put(s, "user", "style", "{\"content\": \"Short.\"}").then().statusCode(201);
        String st = "/v1/stores/" + s;
        String[][] refusing = {
            {"PUT", st, "{\"max_entry_bytes\": 100}"},
            {"POST", st + "/scopes/user/entries/style/erase", "{\"reason\": \"asked\"}"},
            {"POST", st + "/sessions/s1/render?scope=user", null},
            {"POST", st + "/memories/search", "{\"query\": \"fact\"}"},
            {"POST", st + "/memories/m-1/archive", "{\"reason\": \"old\"}"},
            {"POST", st + "/memories/m-1/unarchive", null},
            {"POST", st + "/memories/m-1/supersede", "{}"},
            {"POST", st + "/memories/m-1/access", null},
            {"POST", st + "/memories/m-1/revisions", "{\"by\": \"leo\", \"summary\": \"ok\"}"},
            {"DELETE", st + "/memories/m-1", null},
            {"DELETE", st + "/memories", null},
            {"PUT", st + "/banks/user:alice/config", "{\"mission\": \"m\"}"},
            {"PUT", st + "/banks/user:alice/slots/SOUL", "{\"text\": \"be brief\"}"},
            {"POST", st + "/banks/user:alice/slots/SOUL/append", "{\"text\": \"more\"}"},
            {"DELETE", st + "/banks/user:alice/slots/SOUL", null},
            {"POST", st + "/banks/user:alice/reflect", "{\"reflector\": \"deterministic\"}"},
            {"PUT", st + "/mental-models/mm-1", "{\"content\": \"c\"}"},
            {"DELETE", st + "/mental-models/mm-1", null},
            {"POST", "/v1/keys", "{\"name\": \"made\", \"grants\": [{\"stores\": \"acme-*\", \"role\": \"read\"}]}"},
            {"DELETE", "/v1/keys/key_no-such-key-here", null},
            {"POST", "/mcp", "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}"},
        };
        String before = snapshot(s);
        for (String[] w : refusing) {
            RequestSpecification r = given().header(KEY, "k-not-taken");
            if (w[2] != null) {
                r = r.contentType("application/json").body(w[2]);
            } else if (!w[0].equals("DELETE")) {
                r = r.contentType("application/json");
            }
            if (w[1].equals("/mcp")) {
                r = r.accept("application/json, text/event-stream");
            }
            r.request(w[0], w[1]).then().log().ifValidationFails().statusCode(422).contentType("application/problem+json")
                    .body("rule", equalTo("idempotency-key-not-taken")).body("field", equalTo(KEY));
        }
        assertEquals(before, snapshot(s), "no refused request wrote anything");
    }

    @Test
    void thePureComputationsIgnoreAKey() {
        json().header(KEY, "k-pure").body("{\"records\": []}").post("/v1/manifests/fold").then().statusCode(200);
        json().header(KEY, "k-pure").body("{\"format\": \"openai-chat\", \"messages\": [{\"role\": \"user\", "
                + "\"content\": \"hi\"}]}").post("/v1/compact").then().statusCode(200);
    }

    private String snapshot(String store) throws Exception {
        try (Connection c = db.getConnection(); PreparedStatement p = c.prepareStatement("select (select seq from "
                + "store where id = ?) || '/' || (select count(*) from idempotency where store_id = ?) || '/' || "
                + "(select count(*) from api_key) || '/' || (select count(*) from memory where store_id = ?)")) {
            p.setString(1, store);
            p.setString(2, store);
            p.setString(3, store);
            try (ResultSet r = p.executeQuery()) {
                r.next();
                return r.getString(1);
            }
        }
    }

    private long journal(String store) throws Exception {
        return count("select count(*) from journal where store_id = ?", store);
    }

    private long count(String sql, String store) throws Exception {
        return Sql.count(db, sql, store);
    }
}
