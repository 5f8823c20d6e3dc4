package dev.engram.contexts.rest;

import dev.engram.rest.Api;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Compaction of a stored context on a server without a summarizer (the reference's fallback texts, in one
 * transaction), and the contexts' metrics as {@code /q/metrics} shows them: compactions by strategy and whether a
 * model summarized, pruned and evicted tool outputs of built prompts, and the fill at each fill check and prompt.
 */
@QuarkusTest
class ContextCompactionApiTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    AgroalDataSource db;

    static String created(String config) {
        String c = "/v1/stores/" + Api.newStore() + "/contexts/run";
        json().body(config).put(c).then().statusCode(201);
        return c;
    }

    static void steps(String c, String... tools) {
        StringBuilder body = new StringBuilder("{\"steps\": [");
        for (int i = 0; i < tools.length; i++) {
            body.append(i == 0 ? "" : ", ").append("{\"thought\": \"T").append(i + 1).append("\", \"action\": {\"id\": \"c")
                    .append(i + 1).append("\", \"name\": \"").append(tools[i]).append("\"}, \"observation\": \"O")
                    .append(i + 1).append("\"}");
        }
        json().body(body.append("]}").toString()).post(c + "/steps").then().statusCode(200);
    }

    @Test
    void aCompactionWithoutAModelIsCountedAndItsRecordNamesTheStrategyAndNoModel() throws Exception {
        String sliding = created("{\"strategy\": {\"name\": \"sliding_window\", \"keep_first\": 1, \"keep_last\": 1}}");
        String summarizing = created("{\"strategy\": {\"name\": \"summarization\", \"block_size\": 2, "
                + "\"keep_last\": 1}}");
        steps(sliding, "a", "b", "c", "d");
        steps(summarizing, "a", "b", "c");
        double slidingBefore = compactions("sliding_window", false);
        double summarizationBefore = compactions("summarization", false);

        json().post(sliding + "/compact").then().statusCode(200).body("compacted", equalTo(true))
                .body("summarized", equalTo(false))
                .body("$", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("summary_error")));
        // no summarizer on this server: the fallback texts land, and the answer says so
        json().post(summarizing + "/compact").then().statusCode(200).body("compacted", equalTo(true))
                .body("summarized", equalTo(false))
                .body("summary_error", org.hamcrest.Matchers.startsWith("no summarizer is configured on this server"));
        assertEquals(slidingBefore + 1, compactions("sliding_window", false));
        assertEquals(summarizationBefore + 1, compactions("summarization", false));
        List<String> prompt = given().get(summarizing + "/prompt").then().extract().path("messages.content");
        assertEquals("[... 2 steps summarized ...]", prompt.get(0));

        JsonNode record = compacted(sliding);
        assertEquals("sliding_window", record.get("strategy").asText());
        assertFalse(record.get("summarized").asBoolean());
        assertFalse(record.has("model"), record.toString());
        assertEquals("summarization", compacted(summarizing).get("strategy").asText());

        String empty = created("{}");
        double all = compactions("sliding_window", false);
        json().post(empty + "/compact").then().statusCode(200).body("compacted", equalTo(false));
        assertEquals(all, compactions("sliding_window", false), "a compaction that compacted nothing is not counted");
    }

    @Test
    void aModelNamedByAContextOnAServerWithoutASummarizerIsA409AndNothingIsWritten() throws Exception {
        String c = created("{\"strategy\": {\"name\": \"hierarchical\", \"summarizer\": {\"model\": \"gpt-4o-mini\"}}}");
        steps(c, "a", "b", "c", "d", "e", "f", "g");
        given().get(c).then().body("config.strategy.summarizer.model", equalTo("gpt-4o-mini"));
        long journal = journal(c);
        json().post(c + "/compact").then().statusCode(409).contentType("application/problem+json")
                .body("type", containsString("summarizer-not-configured"))
                .body("detail", containsString("ENGRAM_CONTEXT_SUMMARIZER_MODEL"));
        assertEquals(journal, journal(c));
        given().get(c).then().body("compacted", equalTo(false));

        json().body("{\"strategy\": {\"name\": \"hierarchical\", \"summarizer\": \"none\"}}").put(c).then()
                .statusCode(200);
        json().post(c + "/compact").then().statusCode(200).body("compacted", equalTo(true));
    }

    @Test
    void builtPromptsCountThePrunedAndEvictedOutputsTheyShowed() {
        String c = created("{\"pruning\": {\"keep_last_n\": 1, \"threshold_percent\": 0}, \"history_mutation\": "
                + "{\"evict_step_status\": true}}");
        steps(c, "update_checklist", "read_file", "grep", "read_file");
        double pruned = metric("engram_context_tool_outputs_pruned_total", "");
        double evicted = metric("engram_context_tool_outputs_evicted_total", "");
        List<String> prompt = given().get(c + "/prompt").then().statusCode(200).extract().path("messages.content");
        assertEquals("[checklist update — evicted]", prompt.get(1));
        assertTrue(prompt.get(3).startsWith("[Tool output pruned"), prompt.get(3));
        assertEquals(pruned + 2, metric("engram_context_tool_outputs_pruned_total", ""));
        assertEquals(evicted + 1, metric("engram_context_tool_outputs_evicted_total", ""));
        given().get(c + "/prompt").then().statusCode(200);
        assertEquals(pruned + 4, metric("engram_context_tool_outputs_pruned_total", ""));
        assertEquals(evicted + 2, metric("engram_context_tool_outputs_evicted_total", ""));
    }

    @Test
    void theFillIsRecordedAtEachFillCheckAndPrompt() {
        String c = created("{\"model\": {\"context_window\": 1000, \"output_limit\": 100}}");
        json().body("{\"input_tokens\": 425}").post(c + "/token-count").then().statusCode(200)
                .body("percent", equalTo(50.0f));
        double count = metric("engram_context_fill_count", "");
        double sum = metric("engram_context_fill_sum", "");
        given().get(c + "/fill").then().statusCode(200).body("percent", equalTo(50.0f));
        given().get(c + "/prompt").then().statusCode(200);
        assertEquals(count + 2, metric("engram_context_fill_count", ""));
        assertEquals(sum + 100, metric("engram_context_fill_sum", ""), 1e-6);
        assertTrue(metric("engram_context_fill_max", "") >= 50);
    }

    /** Compactions of {@code strategy} counted with {@code summarized}, as {@code /q/metrics} shows them. */
    static double compactions(String strategy, boolean summarized) {
        return metric("engram_context_compactions_total", "strategy=\"" + strategy + "\",summarized=\"" + summarized
                + "\"");
    }

    /** The value of the Prometheus sample {@code name} whose labels contain {@code labels}, or 0 when none is shown. */
    static double metric(String name, String labels) {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(?:\\{([^}]*)})? ([0-9.E+-]+)$").matcher(metrics);
        while (m.find()) {
            if (labels.isEmpty() || (m.group(1) != null && m.group(1).contains(labels))) {
                return Double.parseDouble(m.group(2));
            }
        }
        return 0;
    }

    private JsonNode compacted(String c) throws Exception {
        try (Connection conn = db.getConnection(); PreparedStatement p = conn.prepareStatement("select record::text "
                + "from journal where store_id = ? and kind = 'context.compacted' order by seq desc limit 1")) {
            p.setString(1, c.split("/")[3]);
            try (ResultSet r = p.executeQuery()) {
                assertTrue(r.next());
                return JSON.readTree(r.getString(1));
            }
        }
    }

    private long journal(String c) throws Exception {
        try (Connection conn = db.getConnection(); PreparedStatement p = conn.prepareStatement(
                "select count(*) from journal where store_id = ?")) {
            p.setString(1, c.split("/")[3]);
            try (ResultSet r = p.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}
