package dev.engram.memories.rest;

import dev.engram.rest.Sql;
import dev.engram.rest.Api;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Memories over HTTP: the contract's operations, the journal's record of each, and refusals that write nothing. */
@QuarkusTest
class MemoryApiTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    AgroalDataSource db;

    static String memories(String store) {
        return "/v1/stores/" + store + "/memories";
    }

    @Test
    void aMemoryIsSavedReadListedSearchedAndJournaledAsTheApiShowsIt() throws Exception {
        String s = Api.newStore();
        String id = json().body("{\"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"content\": \"Apollo ships on "
                + "Friday.\", \"importance\": 0.9, \"tags\": [\"apollo\", \" deadline \", \"apollo\"], "
                + "\"created_at\": \"2026-11-01T09:00:00Z\"}").post(memories(s)).then().statusCode(201)
                .header("Location", startsWith("/v1/stores/" + s + "/memories/"))
                .body("bank_id", equalTo("user:alice")).body("type", equalTo("fact"))
                .body("source", equalTo("user_input")).body("tags", contains("apollo", "deadline"))
                .body("created_at", equalTo("2026-11-01T09:00:00Z")).extract().path("id");
        json().body("{\"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"content\": \"Apollo unrelated trivia\", "
                + "\"importance\": 0.2}").post(memories(s)).then().statusCode(201);
        String got = given().get(memories(s) + "/" + id).then().statusCode(200).extract().asString();

        JsonNode record = JSON.readTree(journal(s, 1));
        assertEquals(JSON.readTree(got), record, "the journal records the memory as the API shows it");

        given().get(memories(s) + "?bank=user:alice").then().statusCode(200).body("memories", hasSize(2))
                .body("memories[0].id", equalTo(id)).body("total", nullValue());
        given().get(memories(s) + "?limit=1").then().statusCode(200).body("memories", hasSize(1))
                .body("total", equalTo(2));
        json().body("{\"query\": \"Apollo Friday\", \"top_k\": 5, \"banks\": [\"user:alice\"]}")
                .post(memories(s) + "/search").then().statusCode(200).body("results", hasSize(2))
                .body("results[0].memory.id", equalTo(id));
        json().post(memories(s) + "/" + id + "/access").then().statusCode(200).body("access_count", equalTo(1));
        json().body("{\"reason\": \"done\"}").post(memories(s) + "/" + id + "/archive").then().statusCode(200)
                .body("archived", equalTo(true)).body("revisions[0].by", equalTo("archive"));
        json().body("{\"query\": \"Apollo Friday\"}").post(memories(s) + "/search").then().statusCode(200)
                .body("results", hasSize(1));
        given().delete(memories(s) + "/" + id).then().statusCode(204);
        given().get(memories(s) + "/" + id).then().statusCode(404);
        given().delete(memories(s)).then().statusCode(200).body("cleared", equalTo(1));
    }

    @Test
    void refusedRequestsWriteNothing() throws Exception {
        String s = Api.newStore();
        String id = json().body("{\"content\": \"kept\"}").post(memories(s)).then().statusCode(201).extract()
                .path("id");
        long before = count("select count(*) from journal where store_id = ?", s);
        json().body("{\"content\": \" \"}").post(memories(s)).then().statusCode(422).body("rule",
                equalTo("content-empty"));
        json().body("{\"content\": \"x\", \"importance\": 1.5}").post(memories(s)).then().statusCode(422);
        json().body("{\"content\": \"x\", \"type\": \"fiction\"}").post(memories(s)).then().statusCode(422);
        json().body("{\"content\": \"x\", \"bank\": {\"type\": \"user\", \"id\": \"a\"}, \"mood\": 1}")
                .post(memories(s)).then().statusCode(422);
        json().body("{\"content\": \"x\", \"created_at\": \"yesterday\"}").post(memories(s)).then().statusCode(422);
        json().body("{\"content\": \"x\", \"valid_from\": \"2026-02-01T00:00:00Z\", \"valid_to\": "
                + "\"2026-01-01T00:00:00Z\"}").post(memories(s)).then().statusCode(422);
        json().body("{\"by\": \"nowhere\"}").post(memories(s) + "/" + id + "/supersede").then().statusCode(422)
                .body("rule", equalTo("superseded-by-unknown"));
        json().body("{\"by\": \"leo\", \"summary\": \"x\"}").post(memories(s) + "/missing/revisions").then()
                .statusCode(404);
        json().body("{\"query\": \"a\", \"top_k\": 0}").post(memories(s) + "/search").then().statusCode(422);
        json().body("{\"query\": \"a\", \"banks\": [\"User:alice\"]}").post(memories(s) + "/search").then()
                .statusCode(422).body("rule", equalTo("bank-format"));
        given().get(memories(s) + "?bank=weird").then().statusCode(422);
        given().get(memories(s) + "/a%2Fb").then().statusCode(422);
        json().body("{\"content\": \"x\", \"id\": \"other\"}").put(memories(s) + "/mine").then().statusCode(422);
        assertEquals(before, count("select count(*) from journal where store_id = ?", s));
        assertEquals(1, count("select count(*) from memory where store_id = ?", s));
    }

    static String batchOf(int n, String prefix) {
        StringBuilder b = new StringBuilder("{\"memories\": [");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ", ").append("{\"bank\": \"user:alice\", \"content\": \"").append(prefix)
                    .append(' ').append(i).append("\"}");
        }
        return b.append("]}").toString();
    }

    @Test
    void thirtyMemoriesSaveInOneRequestEachJournaledAsASingleSaveIs() throws Exception {
        String s = Api.newStore();
        json().body(batchOf(30, "Fact")).post(memories(s) + "/batch").then().statusCode(201)
                .body("memories", hasSize(30)).body("memories[0].content", equalTo("Fact 0"))
                .body("memories[29].content", equalTo("Fact 29")).body("memories[3].bank_id", equalTo("user:alice"));
        assertEquals(30, count("select count(*) from memory where store_id = ?", s));
        assertEquals(30, count("select count(*) from journal where store_id = ? and kind = 'memory.saved'", s));
        JsonNode record = JSON.readTree(journal(s, 1));
        assertEquals("Fact 0", record.get("content").asText(), "the first record is the first memory's save");
        given().get(memories(s) + "?bank=user:alice&limit=100").then().statusCode(200).body("memories", hasSize(30));
    }

    @Test
    void aBatchWithOneBadMemoryIsRefusedNamingItAndWritesNothing() throws Exception {
        String s = Api.newStore();
        json().body("{\"content\": \"kept\"}").post(memories(s)).then().statusCode(201);
        String bad = batchOf(5, "Fact").replace("\"Fact 3\"", "\" \"");
        json().body(bad).post(memories(s) + "/batch").then().statusCode(422).body("rule", equalTo("content-empty"))
                .body("field", equalTo("memories.3.content"))
                .body("detail", org.hamcrest.Matchers.containsString("nothing was saved"));
        json().body(batchOf(5, "Fact").replace("\"user:alice\", \"content\": \"Fact 2\"",
                "\"User:x\", \"content\": \"Fact 2\"")).post(memories(s) + "/batch").then().statusCode(422)
                .body("rule", equalTo("bank-format")).body("field", equalTo("memories.2.bank"));
        json().body(batchOf(5, "Fact").replace("\"content\": \"Fact 4\"", "\"content\": \"Fact 4\", "
                + "\"importance\": 7")).post(memories(s) + "/batch").then().statusCode(422)
                .body("field", equalTo("memories.4.importance"));
        json().body(batchOf(MemoryRulesLimit.MAX + 1, "Fact")).post(memories(s) + "/batch").then().statusCode(422)
                .body("rule", equalTo("batch-size"))
                .body("detail", org.hamcrest.Matchers.containsString((MemoryRulesLimit.MAX + 1) + " memories"))
                .body("detail", org.hamcrest.Matchers.containsString("at most " + MemoryRulesLimit.MAX));
        json().body("{\"memories\": []}").post(memories(s) + "/batch").then().statusCode(422)
                .body("rule", equalTo("batch-empty"));
        json().body("{\"memories\": [{\"content\": \"a\"}, null]}").post(memories(s) + "/batch").then()
                .statusCode(422).body("field", equalTo("memories.1"));
        json().body("{\"memories\": [{\"content\": \"a\", \"mood\": 1}]}").post(memories(s) + "/batch").then()
                .statusCode(422).body("rule", equalTo("unknown-member"));
        assertEquals(1, count("select count(*) from memory where store_id = ?", s));
        assertEquals(1, count("select count(*) from journal where store_id = ?", s));
    }

    /** The bound a batch takes, as the server states it. */
    static final class MemoryRulesLimit {
        static final int MAX = dev.engram.memories.MemoryRules.MAX_BATCH;
    }

    @Test
    void aBatchSentTwiceUnderOneIdempotencyKeyIsSavedOnceAndAnsweredTheSame() throws Exception {
        String s = Api.newStore();
        String body = batchOf(3, "Keyed");
        io.restassured.response.Response first = json().header("Idempotency-Key", "batch-1").body(body)
                .post(memories(s) + "/batch");
        first.then().statusCode(201);
        List<String> ids = first.path("memories.id");
        json().header("Idempotency-Key", "batch-1").body(body).post(memories(s) + "/batch").then().statusCode(201)
                .header("Idempotent-Replayed", "true").body("memories.id", equalTo(ids))
                .body("memories[2].content", equalTo("Keyed 2"));
        json().header("Idempotency-Key", "batch-1").body(batchOf(3, "Other")).post(memories(s) + "/batch").then()
                .statusCode(422).body("type", org.hamcrest.Matchers.containsString("idempotency-key-reused"));
        assertEquals(3, count("select count(*) from memory where store_id = ?", s));
        assertEquals(3, count("select count(*) from journal where store_id = ?", s));
    }

    @Test
    void aBankIsTakenAsItsIdOrAsItsScopeEverywhereABodyNamesOne() throws Exception {
        String s = Api.newStore();
        json().body("{\"bank\": \"user:alice\", \"content\": \"Alice likes tea.\"}").post(memories(s)).then()
                .statusCode(201).body("bank.type", equalTo("user")).body("bank.id", equalTo("alice"))
                .body("bank_id", equalTo("user:alice"));
        json().body("{\"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"content\": \"Alice likes jam.\"}")
                .post(memories(s)).then().statusCode(201).body("bank_id", equalTo("user:alice"));
        json().body("{\"query\": \"likes\", \"banks\": [{\"type\": \"user\", \"id\": \"alice\"}]}")
                .post(memories(s) + "/search").then().statusCode(200).body("results", hasSize(2));
        json().body("{\"name\": \"memory_recall\", \"bank\": {\"type\": \"user\", \"id\": \"alice\"}, "
                + "\"arguments\": {\"query\": \"tea\"}}").post("/v1/stores/" + s + "/tools/call").then()
                .statusCode(200).body("is_error", equalTo(false))
                .body("output", org.hamcrest.Matchers.containsString("Alice likes tea."));
        // The same refusal for both forms of a bank no path could name, on the member's path.
        json().body("{\"bank\": \"user:a b\", \"content\": \"x\"}").post(memories(s)).then().statusCode(422)
                .body("rule", equalTo("bank-format")).body("field", equalTo("bank"));
        json().body("{\"bank\": {\"type\": \"user\", \"id\": \"a b\"}, \"content\": \"x\"}").post(memories(s))
                .then().statusCode(422).body("rule", equalTo("bank-format")).body("field", equalTo("bank"));
        json().body("{\"query\": \"x\", \"banks\": [\"user:alice\", {\"type\": \"user\", \"id\": \"a b\"}]}")
                .post(memories(s) + "/search").then().statusCode(422).body("rule", equalTo("bank-format"))
                .body("field", equalTo("banks.1"));
        json().body("{\"bank\": 3, \"content\": \"x\"}").post(memories(s)).then().statusCode(422)
                .body("rule", equalTo("member-type")).body("field", equalTo("bank"));
        json().body("{\"bank\": {\"type\": \"user\", \"name\": \"a\"}, \"content\": \"x\"}").post(memories(s))
                .then().statusCode(422).body("rule", equalTo("unknown-member")).body("field", equalTo("bank.name"));
        json().body("{\"name\": \"memory_recall\", \"bank\": \"User:x\", \"arguments\": {\"query\": \"tea\"}}")
                .post("/v1/stores/" + s + "/tools/call").then().statusCode(422).body("rule", equalTo("bank-format"))
                .body("field", equalTo("bank"));
        assertEquals(2, count("select count(*) from memory where store_id = ?", s));
    }

    @Test
    void aModelRemembersAndRecallsThroughTheTools() {
        String s = Api.newStore();
        String call = "/v1/stores/" + s + "/tools/call";
        given().get("/v1/stores/" + s + "/tools?scope=user&bank=user:alice").then().statusCode(200)
                .body("tools.name", org.hamcrest.Matchers.hasItems("memory_remember", "memory_recall"));
        json().body("{\"name\": \"memory_remember\", \"bank\": \"user:alice\", \"arguments\": {\"content\": "
                + "\"Alice prefers tea.\", \"type\": \"preference\", \"importance\": 0.8}}").post(call).then()
                .statusCode(200).body("is_error", equalTo(false))
                .body("output", org.hamcrest.Matchers.matchesPattern("Remembered \\S+ in user:alice \\(preference, "
                        + "importance 0\\.80\\)\\."));
        json().body("{\"name\": \"memory_remember\", \"bank\": \"user:bob\", \"arguments\": {\"content\": "
                + "\"Bob prefers tea too.\"}}").post(call).then().statusCode(200);
        json().body("{\"name\": \"memory_recall\", \"bank\": \"user:alice\", \"arguments\": {\"query\": "
                + "\"tea\"}}").post(call).then().statusCode(200).body("is_error", equalTo(false))
                .body("output", org.hamcrest.Matchers.startsWith("1. [preference, importance 0.80, score "))
                .body("output", org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString("Bob")));
        json().body("{\"name\": \"memory_remember\", \"bank\": \"user:alice\", \"arguments\": {\"content\": "
                + "\"x\", \"importance\": 3}}").post(call).then().statusCode(200).body("is_error", equalTo(true));
        json().body("{\"name\": \"memory_recall\", \"arguments\": {\"query\": \"tea\"}}").post(call).then()
                .statusCode(422).body("rule", equalTo("bank-missing"));
        given().get(memories(s) + "?bank=user:alice").then().statusCode(200).body("memories", hasSize(1))
                .body("memories[0].source", equalTo("inferred"));
    }

    @Test
    void aSaveSentTwiceUnderOneIdempotencyKeyIsOneMemory() throws Exception {
        String s = Api.newStore();
        String body = "{\"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"content\": \"Alice drinks tea.\"}";
        io.restassured.response.Response first = json().header("Idempotency-Key", "save-1").body(body)
                .post(memories(s));
        first.then().statusCode(201);
        String id = first.path("id");
        json().header("Idempotency-Key", "save-1").body(body).post(memories(s)).then().statusCode(201)
                .header("Idempotent-Replayed", "true").header("Location", org.hamcrest.Matchers.endsWith("/" + id))
                .body("id", equalTo(id)).body("content", equalTo("Alice drinks tea."))
                .body("created_at", equalTo(first.path("created_at")));
        json().header("Idempotency-Key", "save-1").body(body.replace("tea", "coffee")).post(memories(s)).then()
                .statusCode(422).body("type", org.hamcrest.Matchers.containsString("idempotency-key-reused"));
        json().header("Idempotency-Key", "put-1").body("{\"content\": \"Bob drinks coffee.\"}")
                .put(memories(s) + "/bob-1").then().statusCode(200);
        json().header("Idempotency-Key", "put-1").body("{\"content\": \"Bob drinks coffee.\"}")
                .put(memories(s) + "/bob-1").then().statusCode(200).header("Idempotent-Replayed", "true");
        assertEquals(2, count("select count(*) from memory where store_id = ?", s));
        assertEquals(2, count("select count(*) from journal where store_id = ?", s));
    }

    @Test
    void concurrentRetriesUnderOneKeyMakeOneMemory() throws Exception {
        String s = Api.newStore();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(6);
        try {
            List<java.util.concurrent.Future<String>> ids = new java.util.ArrayList<>();
            for (int i = 0; i < 6; i++) {
                ids.add(pool.submit(() -> json().header("Idempotency-Key", "race").body("{\"content\": \"Once.\"}")
                        .post(memories(s)).then().statusCode(201).extract().<String>path("id")));
            }
            java.util.Set<String> distinct = new java.util.HashSet<>();
            for (var f : ids) {
                distinct.add(f.get());
            }
            assertEquals(1, distinct.size(), "every retry answered with the one memory");
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, count("select count(*) from memory where store_id = ?", s));
        assertEquals(1, count("select count(*) from journal where store_id = ?", s));
    }

    @Test
    void writesThatKeepNoKeyRefuseOneAndWriteNothing() throws Exception {
        String s = Api.newStore();
        json().body("{\"id\": \"m-1\", \"content\": \"A fact.\"}").post(memories(s)).then().statusCode(201);
        long before = count("select count(*) from journal where store_id = ?", s);
        for (String[] w : new String[][] {{"POST", "/m-1/revisions", "{\"by\": \"leo\", \"summary\": \"ok\"}"},
                {"POST", "/m-1/archive", "{\"reason\": \"old\"}"}, {"DELETE", "/m-1", null}, {"DELETE", "", null},
                {"POST", "/search", "{\"query\": \"fact\"}"}}) {
            var request = given().header("Idempotency-Key", "k-" + w[1]);
            if (w[2] != null) {
                request = request.contentType("application/json").body(w[2]);
            }
            request.request(w[0], memories(s) + w[1]).then().statusCode(422)
                    .body("type", org.hamcrest.Matchers.containsString("invalid"))
                    .body("rule", equalTo("idempotency-key-not-taken"));
        }
        json().header("Idempotency-Key", "k-slot").body("{\"text\": \"x\"}")
                .put("/v1/stores/" + s + "/banks/global/slots/SOUL").then().statusCode(422);
        assertEquals(before, count("select count(*) from journal where store_id = ?", s));
        assertEquals(1, count("select count(*) from memory where store_id = ?", s));
    }

    @Test
    void theRememberToolUnderAKeyRemembersOnce() throws Exception {
        String s = Api.newStore();
        String call = "{\"name\": \"memory_remember\", \"bank\": \"user:alice\", \"arguments\": "
                + "{\"content\": \"Alice drinks tea.\"}}";
        String first = json().header("Idempotency-Key", "tool-1").body(call).post("/v1/stores/" + s + "/tools/call")
                .then().statusCode(200).body("is_error", equalTo(false)).extract().path("output");
        json().header("Idempotency-Key", "tool-1").body(call).post("/v1/stores/" + s + "/tools/call").then()
                .statusCode(200).header("Idempotent-Replayed", "true").body("output", equalTo(first));
        assertEquals(1, count("select count(*) from memory where store_id = ?", s));
        json().header("Idempotency-Key", "tool-2").body("{\"name\": \"memory_recall\", \"bank\": \"user:alice\", "
                + "\"arguments\": {\"query\": \"tea\"}}").post("/v1/stores/" + s + "/tools/call").then()
                .statusCode(422);
    }

    private String journal(String store, long seq) throws Exception {
        return Sql.text(db, "select record::text from journal where store_id = ? and seq = ?", store, seq);
    }

    private long count(String sql, String store) throws Exception {
        return Sql.count(db, sql, store);
    }
}
