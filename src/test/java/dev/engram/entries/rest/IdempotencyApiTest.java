package dev.engram.entries.rest;

import dev.engram.rest.Sql;
import dev.engram.rest.Api;
import dev.engram.rest.KeyRace;
import dev.engram.rest.IdempotencyKeys;
import static dev.engram.rest.Api.json;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Idempotency-Key over HTTP: a retry is answered with the first result and writes nothing, whatever the method;
 * the same key with another request is a 422; of concurrent requests under one key exactly one writes; a refused
 * write records no key. What was written is read straight from PostgreSQL.
 */
@QuarkusTest
class IdempotencyApiTest {

    private static final String KEY = "Idempotency-Key";

    @Inject
    AgroalDataSource db;

    static Response put(String store, String name, String key, String body) {
        return json().header(KEY, key).body(body).put(Api.entry(store, "user", name));
    }

    @Test
    void aRetriedPutIsAnsweredWithTheFirstResultAndWritesOnce() throws Exception {
        String s = Api.newStore();
        Response first = put(s, "style", "k-create",
                "{\"content\":\"Short answers.\",\"meta\":{\"description\":\"How\"}}");
        first.then().statusCode(201).header(IdempotencyKeys.REPLAYED, nullValue());
        json().body("{\"content\":\"Long answers.\"}").put(Api.entry(s, "user", "style")).then().statusCode(200);

        Response again = put(s, "style", "k-create",
                "{ \"meta\": {\"description\": \"How\"}, \"content\": \"Short answers.\" }");
        again.then().statusCode(201).header(IdempotencyKeys.REPLAYED, "true")
                .header("ETag", first.header("ETag")).header("Location", first.header("Location"));
        assertEquals(first.jsonPath().getMap(""), again.jsonPath().getMap(""), "the first answer, byte for byte");
        assertEquals(2, count("select count(*) from journal where store_id = ?", s), "the retry wrote nothing");

        Response replaced = put(s, "style", "k-replace", "{\"content\":\"Tabs.\"}");
        replaced.then().statusCode(200);
        put(s, "style", "k-replace", "{\"content\":\"Tabs.\"}").then().statusCode(200)
                .header(IdempotencyKeys.REPLAYED, "true").body("seq", equalTo(3));
        assertEquals(3, count("select count(*) from journal where store_id = ?", s));
        assertEquals(2, count("select count(*) from idempotency where store_id = ?", s));
    }

    @Test
    void aRetryOfAConditionalPutIsAnsweredThoughItsPreconditionNoLongerHolds() {
        String s = Api.newStore();
        json().header(KEY, "k-new").header("If-None-Match", "*").body("{\"content\":\"v1\"}")
                .put(Api.entry(s, "user", "style")).then().statusCode(201);
        json().header(KEY, "k-new").header("If-None-Match", "*").body("{\"content\":\"v1\"}")
                .put(Api.entry(s, "user", "style")).then().statusCode(201).header(IdempotencyKeys.REPLAYED, "true");
    }

    @Test
    void theSameKeyWithAnotherRequestIsRefusedAndWritesNothing() throws Exception {
        String s = Api.newStore();
        put(s, "style", "k-1", "{\"content\":\"v1\"}").then().statusCode(201);
        String[][] others = {
            {"PUT", Api.entry(s, "user", "style"), "{\"content\":\"v2\"}"},
            {"PUT", Api.entry(s, "user", "other"), "{\"content\":\"v1\"}"},
            {"PUT", Api.entry(s, "project", "style"), "{\"content\":\"v1\"}"},
            {"PATCH", Api.entry(s, "user", "style"), "{\"old_text\":\"v1\",\"new_text\":\"v2\"}"},
            {"DELETE", Api.entry(s, "user", "style"), null},
            {"POST", "/v1/stores/" + s + "/tools/call",
                "{\"name\":\"memory_save\",\"scopes\":[\"user\"],\"arguments\":{\"name\":\"style\","
                    + "\"content\":\"v1\"}}"},
        };
        for (String[] o : others) {
            var request = json().header(KEY, "k-1");
            if (o[2] != null) {
                request.body(o[2]);
            }
            request.request(o[0], o[1]).then().statusCode(422).contentType("application/problem+json")
                    .body("type", equalTo("https://engram.dev/problems/idempotency-key-reused"))
                    .body("title", equalTo("Idempotency key reused"));
        }
        assertEquals(1, count("select count(*) from journal where store_id = ?", s));
        assertEquals(1, count("select seq from store where id = ?", s));
    }

    @Test
    void eightConcurrentRequestsUnderOneKeyWriteOnceAndAreAllAnsweredWithIt() throws Exception {
        String s = Api.newStore();
        KeyRace.assertOneAnswer(8, 201, "one wrote, the others were answered with its record",
                () -> put(s, "race", "k-race", "{\"content\":\"once\"}"));
        assertEquals(1, count("select count(*) from journal where store_id = ?", s));
        assertEquals(1, count("select count(*) from idempotency where store_id = ?", s));
    }

    @Test
    void aRetriedPatchOrDeleteIsAnsweredInsteadOfRefused() throws Exception {
        String s = Api.newStore();
        Api.put(s, "user", "style", "{\"content\":\"Short answers.\"}").then().statusCode(201);
        String patch = "{\"old_text\":\"Short\",\"new_text\":\"Brief\"}";
        Response patched = json().header(KEY, "k-patch").body(patch).patch(Api.entry(s, "user", "style"));
        patched.then().statusCode(200);
        json().header(KEY, "k-patch").body(patch).patch(Api.entry(s, "user", "style")).then().statusCode(200)
                .header(IdempotencyKeys.REPLAYED, "true").header("ETag", patched.header("ETag"))
                .body("seq", equalTo(2)).body("entry.content", equalTo("Brief answers."));

        json().header(KEY, "k-forget").delete(Api.entry(s, "user", "style")).then().statusCode(200)
                .body("entry.deleted", equalTo(true));
        json().header(KEY, "k-forget").delete(Api.entry(s, "user", "style")).then().statusCode(200)
                .header(IdempotencyKeys.REPLAYED, "true").body("seq", equalTo(3));
        assertEquals(3, count("select count(*) from journal where store_id = ?", s));
    }

    @Test
    void aRetriedToolCallIsAnsweredWithTheFirstOutputAndRecord() throws Exception {
        String s = Api.newStore();
        String save = "{\"name\":\"memory_save\",\"scopes\":[\"user\"],\"arguments\":{\"name\":\"style\","
                + "\"content\":\"Short answers.\",\"meta\":{\"description\":\"How to answer\"}}}";
        Response first = json().header(KEY, "k-tool").header("Engram-Session", "slack-7f3a").body(save)
                .post("/v1/stores/" + s + "/tools/call");
        first.then().statusCode(200).body("is_error", equalTo(false)).header(IdempotencyKeys.REPLAYED, nullValue());
        assertTrue(first.jsonPath().getString("output").contains("created"), first.asString());

        Response again = json().header(KEY, "k-tool").header("Engram-Session", "slack-7f3a").body(save)
                .post("/v1/stores/" + s + "/tools/call");
        again.then().statusCode(200).header(IdempotencyKeys.REPLAYED, "true");
        assertEquals(first.jsonPath().getMap(""), again.jsonPath().getMap(""),
                "the first output (it said created, not replaced), is_error and details");

        String patch = "{\"name\":\"memory_patch\",\"scopes\":[\"user\"],\"arguments\":{\"name\":\"style\","
                + "\"old_text\":\"Short\",\"new_text\":\"Brief\"}}";
        Response patched = json().header(KEY, "k-tool-patch").body(patch).post("/v1/stores/" + s + "/tools/call");
        Response patchedAgain = json().header(KEY, "k-tool-patch").body(patch).post("/v1/stores/" + s + "/tools/call");
        assertFalse(patchedAgain.jsonPath().getBoolean("is_error"), patchedAgain.asString());
        assertEquals(patched.jsonPath().getMap(""), patchedAgain.jsonPath().getMap(""));

        String forget = "{\"name\":\"memory_forget\",\"scopes\":[\"user\"],"
                + "\"arguments\":\"{\\\"name\\\":\\\"style\\\"}\"}";
        Response forgot = json().header(KEY, "k-tool-forget").body(forget).post("/v1/stores/" + s + "/tools/call");
        Response forgotAgain = json().header(KEY, "k-tool-forget").body(forget).post("/v1/stores/" + s + "/tools/call");
        assertEquals(forgot.jsonPath().getMap(""), forgotAgain.jsonPath().getMap(""), "not \"there is no entry\"");
        assertEquals(3, count("select count(*) from journal where store_id = ?", s));
    }

    @Test
    void aRefusedWriteRecordsNoKeyAndTheFixedRetryWrites() throws Exception {
        String s = Api.newStore();
        json().body("{\"max_entry_bytes\":16}").put("/v1/stores/" + s).then().statusCode(201);
        put(s, "note", "k-fix", "{\"content\":\"" + "x".repeat(17) + "\"}").then().statusCode(413);
        assertEquals(0, count("select count(*) from idempotency where store_id = ?", s));
        put(s, "note", "k-fix", "{\"content\":\"" + "x".repeat(16) + "\"}").then().statusCode(201)
                .header(IdempotencyKeys.REPLAYED, nullValue());

        json().header(KEY, "k-412").header("If-Match",
                Api.quoted(dev.engram.entries.Hash.version(dev.engram.entries.Hash.of("old"), java.util.Map.of())))
                .body("{\"content\":\"y\"}").put(Api.entry(s, "user", "note")).then().statusCode(412);
        assertEquals(1, count("select count(*) from idempotency where store_id = ?", s));
        String tool = "{\"name\":\"memory_save\",\"scopes\":[\"user\"],\"arguments\":{\"name\":\"big\",\"content\":\""
                + "x".repeat(17) + "\"}}";
        json().header(KEY, "k-tool-big").body(tool).post("/v1/stores/" + s + "/tools/call").then().statusCode(200)
                .body("is_error", equalTo(true));
        assertEquals(1, count("select count(*) from idempotency where store_id = ?", s),
                "an is_error call records no key");
        assertEquals(1, count("select count(*) from journal where store_id = ?", s));
    }

    @Test
    void aKeyThatIsNotOneTo255VisibleAsciiCharactersIs422() {
        String s = Api.newStore();
        for (String bad : List.of("two words", "k".repeat(256))) {
            put(s, "style", bad, "{\"content\":\"v1\"}").then().statusCode(422)
                    .body("rule", equalTo("idempotency-key-format")).body("field", equalTo(KEY));
        }
        put(s, "style", "k".repeat(255), "{\"content\":\"v1\"}").then().statusCode(201);
    }

    private long count(String sql, String store) throws Exception {
        return Sql.count(db, sql, store);
    }
}
