package dev.engram.contexts.rest;

import dev.engram.rest.Sql;
import dev.engram.rest.Api;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Contexts over HTTP against PostgreSQL: each route, the journal record of each change, refusals that write nothing,
 * what a re-read brings back, and concurrent appends landing whole and in order.
 */
@QuarkusTest
class ContextApiTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    AgroalDataSource db;

    static String context(String store, String id) {
        return "/v1/stores/" + store + "/contexts/" + id;
    }

    static final String CONFIG = "{\"model\": {\"context_window\": 2000, \"output_limit\": 200}, "
            + "\"safety_margin_percent\": 10, \"strategy\": {\"name\": \"sliding_window\", \"keep_first\": 1, "
            + "\"keep_last\": 1}, \"pruning\": {\"keep_last_n\": 1, \"threshold_percent\": 0}, "
            + "\"injection_defense\": true, \"token_counter\": \"simple\"}";

    @Test
    void aContextIsConfiguredFilledAssembledCompactedAndDeletedWithARecordOfEachChange() throws Exception {
        String s = Api.newStore();
        String c = context(s, "run-1");
        json().body(CONFIG).put(c).then().statusCode(201).body("id", equalTo("run-1"))
                .body("config.model.context_window", equalTo(2000)).body("config.safety_margin_percent", equalTo(10))
                .body("config.strategy.keep_first", equalTo(1)).body("fill.max", equalTo(1600))
                .body("fill.status", equalTo("ok")).body("steps", equalTo(0));
        json().body(CONFIG.replace("\"keep_last\": 1}", "\"keep_last\": 2}")).put(c).then().statusCode(200)
                .body("config.strategy.keep_last", equalTo(2));
        json().body("{\"text\": \"You are careful.\\u0000CACHE_BREAK\\u0000Today is Monday.\"}")
                .put(c + "/system-prompt").then().statusCode(200);
        json().body("{\"text\": \"Fix the build.\", \"blocks\": [{\"type\": \"image\", \"image_b64\": \"AAAA\", "
                + "\"media_type\": \"image/png\"}]}").put(c + "/task").then().statusCode(200);
        json().body("{\"text\": \"1. read 2. fix\"}").put(c + "/plan").then().statusCode(200);
        json().body("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, {\"role\": \"assistant\", "
                + "\"content\": \"hello\"}]}").put(c + "/prior-conversation").then().statusCode(200);
        json().body("{\"steps\": [{\"thought\": \"look\", \"action\": {\"id\": \"c1\", \"name\": \"read_file\", "
                + "\"input\": {\"path\": \"a.txt\"}}, \"observation\": \"line1\\nline2\\nline3\", \"untrusted\": true, "
                + "\"cache\": true}, {\"thought\": \"again\", \"action\": {\"id\": \"c2\", \"name\": \"grep\", "
                + "\"input\": \"{\\\"q\\\": \\\"x\\\"}\"}, \"observation\": \"found\", \"is_error\": true, "
                + "\"response_group\": 3, \"reasoning_items\": [{\"id\": \"r1\", \"summary\": \"s\"}]}]}")
                .post(c + "/steps").then().statusCode(200).body("steps", equalTo(2));
        json().body("{\"text\": \"stop and report\"}").put(c + "/interjection").then().statusCode(200)
                .body("pending_interjection", equalTo("stop and report"));

        given().get(c + "/steps").then().statusCode(200).body("steps", hasSize(2))
                .body("steps[0].action.input.path", equalTo("a.txt")).body("steps[0].untrusted", equalTo(true))
                .body("steps[0].cache_hash", equalTo(shortHashOf("read_file", "line1\nline2\nline3")))
                .body("steps[1].is_error", equalTo(true)).body("steps[1].response_group", equalTo(3))
                .body("steps[1].action.input.q", equalTo("x")).body("steps[1].reasoning_items[0].id", equalTo("r1"));
        String prompt = given().get(c + "/prompt").then().statusCode(200)
                .body("messages.role", contains("system", "system", "user", "assistant", "user", "system",
                        "assistant", "tool", "assistant", "tool", "user"))
                .body("messages[0].content", equalTo("You are careful.")).body("messages[1].content",
                        equalTo("Today is Monday."))
                .body("messages[4].content_blocks[0].type", equalTo("image"))
                .body("messages[6].tool_calls[0].name", equalTo("read_file"))
                .body("messages[10].content", equalTo("stop and report")).extract().asString();
        given().get(c + "/fill").then().statusCode(200).body("status", equalTo("ok")).body("max", equalTo(1600))
                .body("used", greaterThan(0));
        given().get(c + "/vulnerable-outputs").then().statusCode(200).body("outputs", hasSize(1))
                .body("outputs[0].tool_name", equalTo("read_file"));
        assertEquals(prompt, given().get(c + "/prompt").asString(), "a re-read assembles the same prompt");

        String hash = shortHashOf("read_file", "line1\nline2\nline3");
        given().get(c + "/tool-results/" + hash + "?start_line=2&num_lines=1").then().statusCode(200)
                .body("tool_name", equalTo("read_file")).body("short_hash", equalTo(hash))
                .body("text", startsWith("[Lines 2-2 of 3 from cached read_file result | hash: " + hash + "]\nline2"));
        given().get(c + "/tool-results/" + fullHashOf("read_file", "line1\nline2\nline3")).then().statusCode(200)
                .body("short_hash", equalTo(hash));
        json().body("{\"tool_name\": \"cat\", \"content\": \"x\"}").post(c + "/tool-results").then().statusCode(200)
                .body("short_hash", equalTo(shortHashOf("cat", "x")));

        json().body("{\"input_tokens\": 1500}").post(c + "/token-count").then().statusCode(200)
                .body("used", equalTo(1500)).body("status", equalTo("warning"));
        json().post(c + "/compact").then().statusCode(200).body("compacted", equalTo(true))
                .body("before_percent", equalTo(93.75f)).body("after_percent", lessThan(93.75f));
        given().get(c).then().statusCode(200).body("compacted", equalTo(true))
                .body("compacted_through_index", equalTo(2));
        given().delete(c + "/interjection").then().statusCode(200).body("pending_interjection", equalTo(""));
        given().delete(c + "/interjection").then().statusCode(200);
        json().body("{\"steps\": [{\"thought\": \"resumed\"}]}").put(c + "/steps").then().statusCode(200)
                .body("steps", equalTo(1)).body("compacted", equalTo(false));
        given().delete(c).then().statusCode(204);
        given().get(c).then().statusCode(404).body("type", containsString("not-found"));
        given().get(c + "/tool-results/" + hash).then().statusCode(404);

        assertEquals(List.of("context.configured", "context.configured", "context.system_prompt_set",
                "context.task_set", "context.plan_set", "context.prior_conversation_set", "context.steps_appended",
                "context.interjection_set", "context.tool_result_cached", "context.token_count_corrected",
                "context.compacted", "context.interjection_consumed", "context.steps_replaced", "context.deleted"),
                kinds(s));
        JsonNode appended = record(s, "context.steps_appended");
        assertEquals("run-1", appended.get("id").asText());
        assertEquals(0, appended.get("from").asInt());
        assertEquals("{\"q\": \"x\"}", appended.get("steps").get(1).get("action").get("input").asText());
        // the journal carries each observation's size and hash, not the observation (ADR 0008); the cached output's
        // hash stays, and GET .../steps still answers the whole step
        JsonNode cachedStep = appended.get("steps").get(0);
        assertTrue(!cachedStep.has("observation"), cachedStep.toString());
        assertEquals(17, cachedStep.get("observation_bytes").asInt());
        assertEquals(sha256("line1\nline2\nline3"), cachedStep.get("observation_hash").asText());
        assertEquals(shortHashOf("read_file", "line1\nline2\nline3"), cachedStep.get("cache_hash").asText());
        assertEquals(5, appended.get("steps").get(1).get("observation_bytes").asInt());
        assertEquals("Today is Monday.", record(s, "context.system_prompt_set").get("parts").get(1).asText());
        assertEquals(0, count("select count(*) from context where store_id = ?", s));
        assertEquals(0, count("select count(*) from tool_result where store_id = ?", s));
    }

    @Test
    void refusedRequestsWriteNothing() throws Exception {
        String s = Api.newStore();
        String c = context(s, "run-1");
        json().body("{}").put(c).then().statusCode(201).body("config.pruning.keep_last_n", equalTo(3))
                .body("config.model.context_window", equalTo(128000));
        json().body("{\"steps\": [{\"thought\": \"t\", \"action\": {\"id\": \"c1\", \"name\": \"cat\"}, "
                + "\"observation\": \"o\", \"cache\": true}]}").post(c + "/steps").then().statusCode(200);
        String before = snapshot(s);

        json().body("{\"strategy\": {\"name\": \"guess\"}}").put(c).then().statusCode(422)
                .body("rule", equalTo("strategy-unknown"));
        json().body("{\"model\": {\"context_window\": -1}}").put(c).then().statusCode(422)
                .body("rule", equalTo("model-negative"));
        json().body("{\"token_counter\": \"sentencepiece/llama\"}").put(c).then().statusCode(422)
                .body("rule", equalTo("token-counter-unknown"));
        json().body("{\"pruning\": {\"keep_last_n\": -2}}").put(c).then().statusCode(422);
        json().body("{\"mood\": 1}").put(c).then().statusCode(422);
        json().body("{\"steps\": [{\"action\": {\"id\": \"c\", \"name\": \"n\", \"input\": \"not json\"}}]}")
                .post(c + "/steps").then().statusCode(422).body("rule", equalTo("tool-input-json"));
        json().body("{\"steps\": [{\"thought\": \"a\\u0000b\"}]}").post(c + "/steps").then().statusCode(422)
                .body("rule", equalTo("text-nul"));
        json().body("{\"steps\": [{\"thought\": \"a\"}]}").post(context(s, "nobody") + "/steps").then()
                .statusCode(404);
        json().body("{\"steps\": [{\"response_group\": -1}]}").post(c + "/steps").then().statusCode(422);
        json().body("{\"input_tokens\": -5}").post(c + "/token-count").then().statusCode(422)
                .body("rule", equalTo("input-tokens-negative"));
        json().body("{\"messages\": [{\"role\": \"robot\"}]}").put(c + "/prior-conversation").then()
                .statusCode(422).body("rule", equalTo("role-unknown"));
        json().body("{\"text\": \"t\", \"blocks\": [{\"type\": \"video\"}]}").put(c + "/task").then()
                .statusCode(422);
        given().get(c + "/tool-results/ffffffff").then().statusCode(404);
        given().get(c + "/tool-results/XYZ").then().statusCode(422).body("rule", equalTo("hash-format"));
        given().get(c + "/tool-results/" + shortHashOf("cat", "o") + "?num_lines=501").then().statusCode(422);
        json().body("{\"text\": \"x\"}").put(context(s, "a;b") + "/plan").then().statusCode(422)
                .body("rule", equalTo("id-format"));
        json().body("{}").put(context(s, "x".repeat(300))).then().statusCode(422);
        given().get(context(s, "nobody") + "/prompt").then().statusCode(404);
        json().post(context(s, "nobody") + "/compact").then().statusCode(404);

        assertEquals(before, snapshot(s), "refused requests wrote nothing");
    }

    @Test
    void aContextHoldsAtMostTenThousandSteps() throws Exception {
        String s = Api.newStore();
        String c = context(s, "long");
        json().body("{}").put(c).then().statusCode(201);
        String many = "{\"steps\": [" + String.join(",", java.util.Collections.nCopies(10_000, "{\"thought\": \"t\"}"))
                + "]}";
        json().body(many).put(c + "/steps").then().statusCode(200).body("steps", equalTo(10_000));
        String before = snapshot(s);
        json().body("{\"steps\": [{\"thought\": \"one more\"}]}").post(c + "/steps").then().statusCode(429)
                .body("limit", equalTo("context-steps")).body("max", equalTo(10_000));
        json().body(many.replace("[{", "[{\"thought\": \"x\"},{")).put(c + "/steps").then().statusCode(422)
                .body("rule", equalTo("steps-count"));
        assertEquals(before, snapshot(s));
    }

    @Test
    void concurrentAppendsAllLandInOrder() throws Exception {
        String s = Api.newStore();
        String c = context(s, "busy");
        json().body("{}").put(c).then().statusCode(201);
        int threads = 4;
        int each = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            done.add(pool.submit(() -> {
                for (int i = 0; i < each; i++) {
                    json().body("{\"steps\": [{\"thought\": \"t" + thread + "-" + i + "a\"}, {\"thought\": \"t"
                            + thread + "-" + i + "b\"}]}").post(c + "/steps").then().statusCode(200);
                }
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        List<String> thoughts = given().get(c + "/steps").then().statusCode(200).extract().path("steps.thought");
        assertEquals(threads * each * 2, thoughts.size());
        for (int t = 0; t < threads; t++) {
            List<String> mine = new ArrayList<>();
            for (String th : thoughts) {
                if (th.startsWith("t" + t + "-")) {
                    mine.add(th);
                }
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < each; i++) {
                expected.add("t" + t + "-" + i + "a");
                expected.add("t" + t + "-" + i + "b");
            }
            assertEquals(expected, mine, "thread " + t + "'s steps in its order, each request's pair together");
        }
        List<Integer> froms = new ArrayList<>();
        try (Connection conn = db.getConnection(); PreparedStatement p = conn.prepareStatement("select "
                + "(record->>'from')::int from journal where store_id = ? and kind = 'context.steps_appended' "
                + "order by seq")) {
            p.setString(1, s);
            try (ResultSet r = p.executeQuery()) {
                while (r.next()) {
                    froms.add(r.getInt(1));
                }
            }
        }
        for (int i = 0; i < froms.size(); i++) {
            assertEquals(2 * i, froms.get(i), "records in seq order append where the last one ended");
        }
        assertTrue(froms.size() == threads * each);
    }

    @Test
    void appendsToTwoContextsBesideEntryWritesKeepEveryStepCachedResultAndSeq() throws Exception {
        String s = Api.newStore();
        List<String> contexts = List.of(context(s, "left"), context(s, "right"));
        for (String c : contexts) {
            json().body("{}").put(c).then().statusCode(201);
        }
        int threads = 4;
        int each = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            String c = contexts.get(t % 2);
            done.add(pool.submit(() -> {
                for (int i = 0; i < each; i++) {
                    // Every other append caches a tool result (its own output, or one output all threads share).
                    String step = i % 2 == 0 ? "{\"thought\": \"t" + thread + "-" + i + "\"}"
                            : "{\"thought\": \"t" + thread + "-" + i + "\", \"action\": {\"id\": \"c" + thread + i
                                    + "\", \"name\": \"read_file\"}, \"observation\": \""
                                    + (i == 3 ? "shared" : "out-" + thread + "-" + i) + "\", \"cache\": true}";
                    json().body("{\"steps\": [" + step + "]}").post(c + "/steps").then().statusCode(200);
                }
            }));
        }
        done.add(pool.submit(() -> {
            for (int i = 0; i < each; i++) {
                json().body("{\"content\": \"note " + i + "\"}").put("/v1/stores/" + s + "/scopes/notes/entries/n"
                        + (i % 2)).then().statusCode(org.hamcrest.Matchers.oneOf(200, 201));
            }
        }));
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        for (int side = 0; side < 2; side++) {
            String c = contexts.get(side);
            List<String> thoughts = given().get(c + "/steps").then().statusCode(200).extract().path("steps.thought");
            assertEquals(threads / 2 * each, thoughts.size(), c + " holds every step appended to it");
            List<String> hashes = given().get(c + "/steps").then().extract().path("steps.cache_hash");
            List<String> observations = given().get(c + "/steps").then().extract().path("steps.observation");
            java.util.Map<String, String> byOutput = new java.util.HashMap<>();
            for (int i = 0; i < hashes.size(); i++) {
                if (hashes.get(i) == null || hashes.get(i).isEmpty()) {
                    continue;
                }
                String before = byOutput.putIfAbsent(observations.get(i), hashes.get(i));
                assertTrue(before == null || before.equals(hashes.get(i)), "one output, one short hash");
                given().get(c + "/tool-results/" + hashes.get(i)).then().statusCode(200)
                        .body("text", containsString(observations.get(i)));
            }
            assertEquals(byOutput.size(), new java.util.HashSet<>(byOutput.values()).size(),
                    "no short hash names two outputs");
            assertEquals(1 + threads / 2 * (each / 2 - 1), byOutput.size(), c + " cached each output once");
        }
        assertEquals("t", text("select bool_and(seq = n)::text from (select seq, row_number() over (order by seq) n "
                + "from journal where store_id = ?) j", s).substring(0, 1), "the store's journal has no gap");
        assertEquals(2 + threads * each + each, count("select count(*) from journal where store_id = ?", s));
    }

    @Test
    void anAppendThatMeetsAStoreWriterInADeadlockIsMadeAgainAndLandsOnce() throws Exception {
        String s = Api.newStore();
        String c = context(s, "crossed");
        json().body("{}").put(c).then().statusCode(201);
        json().body("{\"steps\": [{\"thought\": \"first\"}]}").post(c + "/steps").then().statusCode(200);
        long records = count("select count(*) from journal where store_id = ?", s);
        try (Connection other = db.getConnection()) {
            // Another transaction takes the store's lock first, then wants the context's row: the order a change
            // creating a context takes them in, against an append's context first, store last.
            other.setAutoCommit(false);
            try (PreparedStatement p = other.prepareStatement("select seq from store where id = ? for update")) {
                p.setString(1, s);
                p.executeQuery().close();
            }
            ExecutorService pool = Executors.newSingleThreadExecutor();
            Future<Integer> append = pool.submit(() -> json().body("{\"steps\": [{\"thought\": \"second\"}]}")
                    .post(c + "/steps").then().extract().statusCode());
            long deadline = System.currentTimeMillis() + 10_000;
            while (count("select count(*) from pg_stat_activity where wait_event_type = 'Lock' and query like "
                    + "'%engram_journal_append%' and query like ?", "%context_step%") == 0) {
                assertTrue(System.currentTimeMillis() < deadline, "the append waits for the store's lock");
                Thread.sleep(20);
            }
            try (PreparedStatement p = other.prepareStatement("select steps from context where store_id = ? "
                    + "and id = ? for update")) {
                p.setString(1, s);
                p.setString(2, "crossed");
                try (ResultSet r = p.executeQuery()) {
                    assertTrue(r.next());
                    assertEquals(1, r.getInt(1), "the other transaction got the row once the append gave way");
                }
            }
            other.commit();
            assertEquals(200, append.get(), "the append the deadlock failed was made again and landed");
            pool.shutdown();
        }
        List<String> thoughts = given().get(c + "/steps").then().statusCode(200).extract().path("steps.thought");
        assertEquals(List.of("first", "second"), thoughts);
        assertEquals(records + 1, count("select count(*) from journal where store_id = ?", s));
        assertEquals("t", text("select bool_and(seq = n)::text from (select seq, row_number() over (order by seq) n "
                + "from journal where store_id = ?) j", s).substring(0, 1), "the store's journal has no gap");
    }

    /** {@code sha256:} and the hex SHA-256 of {@code text}'s UTF-8 bytes, as the journal writes an observation's. */
    static String sha256(String text) throws Exception {
        return "sha256:" + java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    static String fullHashOf(String tool, String content) {
        return dev.engram.contexts.cache.ToolResultCache.contentHash(tool, content);
    }

    static String shortHashOf(String tool, String content) {
        return fullHashOf(tool, content).substring(0, 4);
    }

    private String snapshot(String store) throws Exception {
        return count("select count(*) from journal where store_id = ?", store) + "/"
                + text("select coalesce(string_agg(md5(config::text || state), ','), '') from context "
                        + "where store_id = ?", store) + "/"
                + text("select md5(coalesce(string_agg(step, ',' order by context_id, idx), '')) from context_step "
                        + "where store_id = ?", store) + "/"
                + text("select coalesce(string_agg(short_hash, ',' order by short_hash), '') from tool_result "
                        + "where store_id = ?", store) + "/"
                + text("select coalesce(string_agg(seq::text, ','), 'none') from store where id = ?", store);
    }

    private List<String> kinds(String store) throws Exception {
        List<String> kinds = new ArrayList<>();
        try (Connection c = db.getConnection(); PreparedStatement p = c.prepareStatement(
                "select kind from journal where store_id = ? order by seq")) {
            p.setString(1, store);
            try (ResultSet r = p.executeQuery()) {
                while (r.next()) {
                    kinds.add(r.getString(1));
                }
            }
        }
        return kinds;
    }

    private JsonNode record(String store, String kind) throws Exception {
        try (Connection c = db.getConnection(); PreparedStatement p = c.prepareStatement(
                "select record::text from journal where store_id = ? and kind = ? order by seq limit 1")) {
            p.setString(1, store);
            p.setString(2, kind);
            try (ResultSet r = p.executeQuery()) {
                r.next();
                return JSON.readTree(r.getString(1));
            }
        }
    }

    private long count(String sql, String store) throws Exception {
        return Long.parseLong(text(sql, store));
    }

    private String text(String sql, String store) throws Exception {
        return Sql.text(db, sql, store);
    }
}
