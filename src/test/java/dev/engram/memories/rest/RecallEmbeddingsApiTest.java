package dev.engram.memories.rest;

import dev.engram.rest.Api;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.WithEmbeddings;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Recall by meaning with the local model: saves are embedded off the request path, from a queue that survives the
 * replica that claimed it, and a search finds a memory that shares no word with the question.
 */
@QuarkusTest
@TestProfile(WithEmbeddings.class)
class RecallEmbeddingsApiTest {

    @Inject
    AgroalDataSource db;

    static String memories(String store) {
        return "/v1/stores/" + store + "/memories";
    }

    static void save(String store, String id, String content) {
        json().body("{\"id\": \"" + id + "\", \"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"content\": \""
                + content + "\"}").post(memories(store)).then().statusCode(201);
    }

    /** Waits (up to a minute) until every memory of the store has a vector; answers the status. */
    static JsonPath embedded(String store) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            JsonPath status = JsonPath.from(given().get("/v1/stores/" + store + "/recall").then().statusCode(200)
                    .extract().asString());
            if (status.getLong("pending") == 0 && status.getLong("embedded") == status.getLong("memories")) {
                return status;
            }
            assertTrue(System.nanoTime() < deadline, "not embedded in a minute: " + status.prettify());
            Thread.sleep(50);
        }
    }

    static List<String> ids(String store, String body) {
        return JsonPath.from(json().body(body).post(memories(store) + "/search").then().statusCode(200).extract()
                .asString()).getList("results.memory.id");
    }

    @Test
    void aMemoryIsFoundByMeaningOnceEmbeddedAndAgainAfterItsContentChanges() throws Exception {
        String s = Api.newStore();
        save(s, "car", "I bought a new car last week.");
        save(s, "cake", "Baking a chocolate cake for the party.");
        save(s, "rain", "It rained all weekend in the mountains.");
        JsonPath status = embedded(s);
        assertEquals("all-minilm-l6-v2-q", status.getString("model"));
        assertEquals(384, status.getInt("dimensions"));
        assertTrue(status.getDouble("lag_ms.p99") >= 0, status.prettify());
        String question = "When did she purchase an automobile?";
        assertEquals("car", ids(s, "{\"query\": \"" + question + "\", \"ranking\": \"semantic\"}").get(0));
        json().body("{\"query\": \"" + question + "\", \"explain\": true}").post(memories(s) + "/search").then()
                .statusCode(200).body("results[0].memory.id", equalTo("car"))
                .body("results[0].explain.ranking", equalTo("hybrid"))
                .body("results[0].explain.semantic", greaterThan(0.3f))
                .body("results[0].explain.lexical", org.hamcrest.Matchers.nullValue())
                .body("results[0].explain.note", equalTo(""));
        save(s, "car", "The dessert buffet had macarons and eclairs.");
        embedded(s);
        assertEquals("car", ids(s, "{\"query\": \"sweet pastries\", \"ranking\": \"semantic\"}").get(0));
        assertEquals(3, ids(s, "{\"query\": \"" + question + "\", \"ranking\": \"semantic\"}").size(),
                "every memory has a similarity, so all three come back");
    }

    @Test
    void aMemoryQueuedButNotEmbeddedWhenItsReplicaDiedIsEmbeddedByAnother() throws Exception {
        String s = Api.newStore();
        save(s, "first", "The lighthouse keeper paints boats.");
        embedded(s);
        try (Connection c = db.getConnection(); Statement st = c.createStatement()) {
            // What a replica killed mid-batch leaves: its memory saved and queued, its claim not yet run out.
            st.execute("insert into memory (store_id, id, bank, scope_type, scope_id, type, content, importance, "
                    + "confidence, tags, keywords, evidence, source, valid_from, superseded_by, conflicting, archived, "
                    + "archive_reason, revisions, created_at, updated_at, haystack) values ('" + s + "', 'orphan', "
                    + "'user:alice', 'user', 'alice', 'fact', 'A violin concert in the old theatre.', 0.5, 0, '{}', "
                    + "'{}', '{}', 'user_input', now(), '', false, false, '', '[]', now(), now(), "
                    + "'a violin concert in the old theatre.  ')");
            st.execute("update embed_queue set claimed_until = now() + interval '2 seconds', attempts = 1 "
                    + "where store_id = '" + s + "' and id = 'orphan'");
        }
        given().get("/v1/stores/" + s + "/recall").then().statusCode(200).body("pending", equalTo(1));
        JsonPath status = embedded(s);
        assertEquals(2, status.getLong("embedded"));
        assertEquals("orphan", ids(s, "{\"query\": \"music performance\", \"ranking\": \"semantic\"}").get(0));
    }

    @Test
    void theHealthCheckSaysWhichModelAndPathServeRecall() {
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'recall' }.status", equalTo("UP"))
                .body("checks.find { it.name == 'recall' }.data.'embedding-model'", equalTo("all-minilm-l6-v2-q"))
                .body("checks.find { it.name == 'recall' }.data.'pgvector'", notNullValue())
                .body("checks.find { it.name == 'recall' }.data.'vector-path'", notNullValue());
    }
}
