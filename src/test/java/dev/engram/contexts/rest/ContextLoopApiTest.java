package dev.engram.contexts.rest;

import dev.engram.rest.Sql;
import dev.engram.rest.Api;
import dev.engram.rest.IdempotencyKeys;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The agent loop in one call per step ({@code POST .../steps?prompt=&compact=auto}): the append compacts when the
 * fill reaches the compaction threshold and answers the fill, what it compacted and the prompt, never the
 * configuration; under an Idempotency-Key a retry is the first answer and compacts nothing again, even when the first
 * request stopped after its append. And the context's view shows the values that apply, defaults included.
 */
@QuarkusTest
class ContextLoopApiTest {

    static final ObjectMapper JSON = new ObjectMapper();

    /** 1600 tokens to fill (2000 − 200 − 10%); the sliding window keeps the first and the last step. */
    static final String CONFIG = "{\"model\": {\"context_window\": 2000, \"output_limit\": 200}, "
            + "\"safety_margin_percent\": 10, \"strategy\": {\"name\": \"sliding_window\", \"keep_first\": 1, "
            + "\"keep_last\": 1}, \"pruning\": {\"keep_last_n\": 0}, \"token_counter\": \"simple\"}";

    @Inject
    AgroalDataSource db;

    /** A tool step of about 400 tokens (a quarter of the context). */
    static String step(int n) {
        return "{\"steps\": [{\"thought\": \"Step " + n + ".\", \"action\": {\"id\": \"c" + n + "\", \"name\": "
                + "\"read_file\", \"input\": {\"path\": \"f" + n + ".txt\"}}, \"observation\": \"" + "x".repeat(1560)
                + "\"}]}";
    }

    static String created(String store) {
        String c = "/v1/stores/" + store + "/contexts/loop";
        json().body(CONFIG).put(c).then().statusCode(201);
        return c;
    }

    @Test
    void anAppendCompactsInTheSameRequestOnceTheFillReachesTheThreshold() throws Exception {
        String s = Api.newStore();
        String c = created(s);
        for (int i = 1; i <= 3; i++) {
            json().body(step(i)).post(c + "/steps?compact=auto").then().statusCode(200)
                    .body("from", equalTo(i - 1)).body("steps", equalTo(i))
                    .body("fill.status", equalTo("ok")).body("compaction", nullValue());
        }
        assertEquals(0, records(s, "context.compacted"));
        JsonNode crossed = JSON.readTree(json().body(step(4)).post(c + "/steps?compact=auto").then().statusCode(200)
                .extract().asString());
        assertEquals(4, crossed.get("steps").asInt());
        assertTrue(crossed.get("compaction").get("compacted").asBoolean(), crossed.toString());
        assertTrue(crossed.get("compaction").get("before_percent").asDouble() >= 85, crossed.toString());
        assertEquals("ok", crossed.get("fill").get("status").asText(), "the fill after the compaction");
        assertEquals(crossed.get("compaction").get("after_percent").asDouble(),
                crossed.get("fill").get("percent").asDouble(), 1e-9);
        assertEquals(1, records(s, "context.compacted"));
        given().get(c).then().statusCode(200).body("compacted", equalTo(true));
        JsonNode fill = JSON.readTree(given().get(c + "/fill").then().statusCode(200).extract().asString());
        assertEquals(fill, crossed.get("fill"), "the answer's fill is the context's");

        String without = "/v1/stores/" + Api.newStore() + "/contexts/loop";
        json().body(CONFIG).put(without).then().statusCode(201);
        for (int i = 1; i <= 4; i++) {
            json().body(step(i)).post(without + "/steps").then().statusCode(200).body("compaction", nullValue());
        }
        given().get(without + "/fill").then().body("status", equalTo("emergency"));
        given().get(without).then().body("compacted", equalTo(false));
    }

    @Test
    void theAnswerCarriesThePromptAsGetPromptAnswersItAndNeverTheConfiguration() throws Exception {
        String c = created(Api.newStore());
        json().body("{\"text\": \"You fix builds.\"}").put(c + "/system-prompt").then().statusCode(200);
        json().body("{\"text\": \"Make the build pass.\"}").put(c + "/task").then().statusCode(200);
        int n = 0;
        for (String format : List.of("neutral", "openai-chat", "anthropic")) {
            n++;
            String answer = json().body(step(n).replace("x".repeat(1560), "edited")).post(c + "/steps?prompt="
                    + format).then().statusCode(200).extract().asString();
            JsonNode appended = JSON.readTree(answer);
            JsonNode prompt = JSON.readTree(given().get(c + "/prompt?format=" + format).then().statusCode(200)
                    .extract().asString());
            assertEquals(prompt, appended.get("prompt"), format);
            ProviderShapes.assertValid(format, prompt, "the append's prompt");
            assertFalse(appended.has("config"), answer);
            assertTrue(appended.get("compaction").isNull(), answer);
        }
        String plain = json().body(step(9)).post(c + "/steps").then().statusCode(200).extract().asString();
        JsonNode appended = JSON.readTree(plain);
        assertEquals(List.of("id", "from", "steps", "fill", "compaction"), fields(appended), plain);
        assertTrue(plain.length() < 200, "a plain append answers in a few bytes, not the configuration: " + plain);
    }

    @Test
    void theViewShowsTheValuesThatApplyDefaultsIncluded() throws Exception {
        String c = "/v1/stores/" + Api.newStore() + "/contexts/loop";
        JsonNode sliding = JSON.readTree(json().body("{}").put(c).then().statusCode(201).extract().asString())
                .get("config");
        assertEquals(JSON.readTree("{\"name\": \"sliding_window\", \"keep_first\": 3, \"keep_last\": 10}"),
                sliding.get("strategy"));
        assertEquals("[Tool output pruned — not available in context. Use search_facts for stored findings, or "
                + "re-read the file if needed. Do NOT fabricate content you cannot see.]",
                sliding.get("pruning").get("placeholder_text").asText());
        assertEquals(3, sliding.get("pruning").get("keep_last_n").asInt());

        json().body("{\"strategy\": {\"name\": \"summarization\", \"keep_last\": 2}, \"pruning\": "
                + "{\"placeholder_text\": \"[cut]\", \"keep_last_n\": 1}}").put(c).then().statusCode(200);
        JsonNode summarizing = JSON.readTree(given().get(c).then().statusCode(200).extract().asString())
                .get("config");
        assertEquals(JSON.readTree("{\"name\": \"summarization\", \"keep_last\": 2, \"block_size\": 10, "
                + "\"observation_truncate\": 500, \"max_summarize_tokens\": 16000, \"summarizer\": \"server\"}"),
                summarizing.get("strategy"));
        assertEquals("[cut]", summarizing.get("pruning").get("placeholder_text").asText());

        json().body("{\"strategy\": {\"name\": \"hierarchical\", \"distant\": 0.5, \"summarizer\": \"none\"}}")
                .put(c).then().statusCode(200);
        JsonNode hierarchical = JSON.readTree(given().get(c).then().statusCode(200).extract().asString())
                .get("config");
        assertEquals(JSON.readTree("{\"name\": \"hierarchical\", \"observation_truncate\": 500, \"distant\": 0.5, "
                + "\"middle\": 0.3, \"recent\": 0.3, \"max_summarize_tokens\": 16000, \"summarizer\": \"none\"}"),
                hierarchical.get("strategy"));
        assertEquals(JSON.readTree("{\"predictive_percent\": 85, \"warning_percent\": 92, "
                + "\"emergency_percent\": 98}"), hierarchical.get("thresholds"));
        assertEquals(5, hierarchical.get("safety_margin_percent").asInt());
    }

    @Test
    void aRetryUnderTheKeyIsTheFirstAnswerAndNeverCompactsTwice() throws Exception {
        String s = Api.newStore();
        String c = created(s);
        for (int i = 1; i <= 3; i++) {
            json().body(step(i)).post(c + "/steps").then().statusCode(200);
        }
        String loop = c + "/steps?prompt=openai-chat&compact=auto";
        Response first = json().header("Idempotency-Key", "k-step-4").body(step(4)).post(loop);
        first.then().statusCode(200).header(IdempotencyKeys.REPLAYED, nullValue())
                .body("compaction.compacted", equalTo(true));
        ProviderShapes.assertValid("openai-chat", JSON.readTree(first.asString()).get("prompt"), "compacted prompt");
        assertEquals(1, records(s, "context.compacted"));
        long journal = journal(s);

        Response retry = json().header("Idempotency-Key", "k-step-4").body(step(4)).post(loop);
        retry.then().statusCode(200).header(IdempotencyKeys.REPLAYED, "true");
        assertEquals(first.asString(), retry.asString(), "the first answer, byte for byte");
        assertEquals(journal, journal(s), "the retry wrote nothing");

        // The first request stopped after its compaction, before it recorded its whole answer: a retry finishes it,
        // and its compaction is the first one replayed.
        com.fasterxml.jackson.databind.node.ObjectNode appended = (com.fasterxml.jackson.databind.node.ObjectNode)
                JSON.readTree(first.asString());
        appended.remove("prompt");
        appended.putNull("compaction");
        appended.set("fill", JSON.readTree("{\"percent\": 100.0, \"status\": \"reject\", \"used\": 1600, "
                + "\"max\": 1600, \"available\": 0}"));
        try (Connection conn = db.getConnection(); PreparedStatement st = conn.prepareStatement(
                "update idempotency set reply = ? where store_id = ? and key = ?")) {
            st.setString(1, "102 " + appended);
            st.setString(2, s);
            st.setString(3, "k-step-4");
            assertEquals(1, st.executeUpdate());
        }
        Response finished = json().header("Idempotency-Key", "k-step-4").body(step(4)).post(loop);
        finished.then().statusCode(200).header(IdempotencyKeys.REPLAYED, "true");
        assertEquals(JSON.readTree(first.asString()), JSON.readTree(finished.asString()));
        assertEquals(journal, journal(s), "nothing compacted again");
        assertEquals(1, records(s, "context.compacted"));
        Response again = json().header("Idempotency-Key", "k-step-4").body(step(4)).post(loop);
        assertEquals(finished.asString(), again.asString(), "the finished answer is what a retry gets now");

        json().header("Idempotency-Key", "k-step-4").body(step(4)).post(c + "/steps?compact=auto").then()
                .statusCode(422).body("type", equalTo("https://engram.dev/problems/idempotency-key-reused"));
    }

    @Test
    void aCompactionThatCannotLandIsReportedAndTheStepsStayAppended() throws Exception {
        String s = Api.newStore();
        String c = "/v1/stores/" + s + "/contexts/loop";
        json().body(CONFIG.replace("{\"name\": \"sliding_window\", \"keep_first\": 1, \"keep_last\": 1}",
                "{\"name\": \"summarization\", \"block_size\": 2, \"keep_last\": 1, \"summarizer\": "
                        + "{\"model\": \"gpt-4o-mini\"}}")).put(c).then().statusCode(201);
        for (int i = 1; i <= 3; i++) {
            json().body(step(i)).post(c + "/steps?compact=auto").then().statusCode(200)
                    .body("compaction", nullValue());
        }
        json().body(step(4)).post(c + "/steps?compact=auto").then().statusCode(200).body("steps", equalTo(4))
                .body("compaction.compacted", equalTo(false))
                .body("compaction.problem.type", equalTo("https://engram.dev/problems/summarizer-not-configured"))
                .body("compaction.problem.status", equalTo(409));
        assertEquals(0, records(s, "context.compacted"));
        given().get(c + "/steps").then().body("steps.size()", equalTo(4));
    }

    @Test
    void badOptionsAreRefusedNamingTheParameterAndWriteNothing() throws Exception {
        String s = Api.newStore();
        String c = created(s);
        long before = journal(s);
        for (String query : List.of("prompt=xml", "prompt=OPENAI-CHAT", "prompt=%00", "compact=yes", "compact=AUTO",
                "compact=auto&prompt=" + "a".repeat(300))) {
            String field = query.startsWith("prompt") || query.contains("&prompt") ? "prompt" : "compact";
            json().header("Idempotency-Key", "k-bad").body(step(1)).post(c + "/steps?" + query).then()
                    .statusCode(422).contentType("application/problem+json").body("field", equalTo(field));
        }
        assertEquals(before, journal(s));
        assertEquals(0, count("select count(*) from idempotency where store_id = ?", s));
        given().get(c + "/steps").then().body("steps.size()", equalTo(0));
    }

    private static List<String> fields(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private long records(String store, String kind) throws Exception {
        return count("select count(*) from journal where store_id = ? and kind = '" + kind + "'", store);
    }

    private long journal(String store) throws Exception {
        return count("select count(*) from journal where store_id = ?", store);
    }

    private long count(String sql, String store) throws Exception {
        return Sql.count(db, sql, store);
    }
}
