package dev.engram.contexts.rest;

import dev.engram.rest.Sql;
import dev.engram.rest.Api;
import dev.engram.tools.rest.ToolsApiTest;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Working memory meets long-term memory over HTTP: a context that names scopes of its store carries their rendered
 * block after its system prompt, records what each prompt showed in the log of the session its id names (only when
 * it moved), counts the block in its fill, and anchors the memory tools' saves made with that session; settings it
 * may not take are refused with nothing written.
 */
@QuarkusTest
class ContextMemoryApiTest {

    @Inject
    AgroalDataSource db;

    static String context(String store, String id) {
        return "/v1/stores/" + store + "/contexts/" + id;
    }

    /** The tokens of the block's system message with the simple counter: the role (2), the text, and 4. */
    static int cost(String block) {
        return 2 + (block.getBytes(StandardCharsets.UTF_8).length + 3) / 4 + 4;
    }

    static List<String> contents(String c) {
        return given().get(c + "/prompt").then().statusCode(200).extract().path("messages.content");
    }

    static String render(String store, String query) {
        return given().get("/v1/stores/" + store + "/render?" + query).then().statusCode(200).extract().asString();
    }

    static int records(String store, String session) {
        return given().get("/v1/stores/" + store + "/sessions/" + session + "/manifests").then().statusCode(200)
                .extract().path("records.size()");
    }

    @Test
    void aCompactionCountsTheBlockInItsFillBeforeAndAfter() {
        String s = Api.newStore();
        Api.put(s, "user", "style", "{\"content\": \"" + "Short answers. ".repeat(40) + "\\n\"}").then()
                .statusCode(201);
        String c = context(s, "run-2");
        json().body("{\"model\": {\"context_window\": 8000, \"output_limit\": 1000}, \"memory\": {\"scopes\": "
                + "[\"user\"]}, \"strategy\": {\"name\": \"sliding_window\", \"keep_first\": 1, \"keep_last\": 1}}")
                .put(c).then().statusCode(201);
        json().body("{\"steps\": [{\"thought\": \"one\"}, {\"thought\": \"two\"}, {\"thought\": \"three\"}]}")
                .post(c + "/steps").then().statusCode(200);
        float before = given().get(c + "/fill").then().statusCode(200).extract().path("percent");

        JsonPath compacted = json().post(c + "/compact").then().statusCode(200).extract().jsonPath();

        float after = given().get(c + "/fill").then().statusCode(200).extract().path("percent");
        assertEquals(before, compacted.getFloat("before_percent"), 0.001, "before counts the block as the fill");
        assertEquals(after, compacted.getFloat("after_percent"), 0.001, "after counts the block as the fill");
    }

    @Test
    void thePromptCarriesTheRenderedBlockAfterTheSystemPromptAndRecordsItOnlyWhenItMoves() {
        String s = Api.newStore();
        Api.put(s, "user", "style", "{\"content\": \"Short answers.\\n\"}").then().statusCode(201);
        Api.put(s, "project", "build", "{\"content\": \"Run make check.\\n\"}").then().statusCode(201);
        String c = context(s, "run-1");
        json().body("{\"model\": {\"context_window\": 8000, \"output_limit\": 1000}, \"pruning\": {\"keep_last_n\": 0},"
                + " \"memory\": {\"scopes\": [\"user\", \"project\"], \"scope_max_bytes\": {\"project\": 500}}}")
                .put(c).then().statusCode(201)
                .body("config.memory.scopes", contains("user", "project"))
                .body("config.memory.max_total_bytes", equalTo(32768))
                .body("config.memory.scope_max_bytes.project", equalTo(500));
        json().body("{\"text\": \"You fix builds.\\u0000CACHE_BREAK\\u0000Be brief.\"}").put(c + "/system-prompt")
                .then().statusCode(200);
        json().body("{\"text\": \"Make the build pass.\"}").put(c + "/task").then().statusCode(200);
        String block = render(s, "scope=user&scope=project&scope_max_bytes=project:500");

        List<String> prompt = contents(c);
        assertEquals(List.of("You fix builds.", "Be brief.", block, "Make the build pass."), prompt);
        given().get(c + "/prompt").then().body("messages.role", contains("system", "system", "system", "user"));
        assertEquals(1, records(s, "run-1"), "the first prompt recorded the whole manifest");
        given().get(c + "/fill").then().statusCode(200).body("used", equalTo(cost(block)));
        contents(c);
        assertEquals(1, records(s, "run-1"), "an unchanged block records nothing");

        Api.put(s, "user", "style", "{\"content\": \"Short answers, in English.\\n\"}").then().statusCode(200);
        String changed = render(s, "scope=user&scope=project&scope_max_bytes=project:500");
        assertNotEquals(block, changed);
        given().get(c + "/fill").then().body("used", equalTo(cost(changed)));
        assertEquals(1, records(s, "run-1"), "a fill shows the model nothing and records nothing");
        assertEquals(changed, contents(c).get(2));
        assertEquals(2, records(s, "run-1"), "the moved block was recorded");
        given().get("/v1/stores/" + s + "/sessions/run-1/manifests").then()
                .body("manifest_hash", equalTo(given().accept("application/json")
                        .get("/v1/stores/" + s + "/render?scope=user&scope=project&scope_max_bytes=project:500")
                        .then().extract().path("manifest_hash")));

        JsonPath appended = json().body("{\"steps\": [{\"thought\": \"Read the log.\", \"action\": {\"id\": \"c1\", "
                + "\"name\": \"read_file\", \"input\": {\"path\": \"build.log\"}}, \"observation\": \"error\"}]}")
                .post(c + "/steps").then().statusCode(200).extract().jsonPath();
        int step = appended.getInt("fill.used") - cost(changed);
        assertTrue(step > 0, "the step's own estimate");
        json().body("{\"input_tokens\": 900}").post(c + "/token-count").then().statusCode(200)
                .body("used", equalTo(900));
        Api.put(s, "user", "tone", "{\"content\": \"" + "x".repeat(400) + "\"}").then().statusCode(201);
        String grown = render(s, "scope=user&scope=project&scope_max_bytes=project:500");
        given().get(c).then().statusCode(200).body("fill.used", equalTo(900 - cost(changed) + cost(grown)));
        given().get(c + "/fill").then().body("used", equalTo(900 - cost(changed) + cost(grown)));
        JsonPath compacted = json().post(c + "/compact").then().statusCode(200).extract().jsonPath();
        int after = given().get(c + "/fill").then().extract().path("used");
        assertEquals(compacted.getDouble("after_percent"), after * 100.0 / 6600, 1e-4,
                "the fill after, as JSON floats read");
        assertTrue(after > cost(grown), "the compacted prompt's estimate and the block");

        given().delete(c).then().statusCode(204);
    }

    /**
     * An append prepares the block of the settings this replica last saw the context show, without reading them
     * first; settings another replica changed meanwhile (here: straight in the row) roll its first attempt back and
     * it is made again with their block: the step lands once, and the prompt shows the settings the row holds.
     */
    @Test
    void anAppendShowsTheBlockOfSettingsThisReplicaHadNotSeenAndLandsOnce() throws Exception {
        String s = Api.newStore();
        Api.put(s, "user", "style", "{\"content\": \"Short answers.\\n\"}").then().statusCode(201);
        Api.put(s, "project", "build", "{\"content\": \"Run make check.\\n\"}").then().statusCode(201);
        String c = context(s, "run-3");
        json().body("{\"model\": {\"context_window\": 8000, \"output_limit\": 1000}, \"pruning\": {\"keep_last_n\": 0},"
                + " \"memory\": {\"scopes\": [\"user\"]}}").put(c).then().statusCode(201);
        String user = render(s, "scope=user");
        String project = render(s, "scope=project");
        assertEquals(List.of(user), blocks(append(c, "one"), user, project));

        assertEquals(1, settings(s, "run-3", "[\"project\"]"), "another replica moved the settings");
        assertEquals(List.of(project), blocks(append(c, "two"), user, project));
        assertEquals(1, settings(s, "run-3", null), "and then showed no memory");
        assertEquals(List.of(), blocks(append(c, "three"), user, project));
        assertEquals(1, settings(s, "run-3", "[\"user\"]"), "and the first settings again");
        assertEquals(List.of(user), blocks(append(c, "four"), user, project));

        given().get(c + "/steps").then().statusCode(200).body("steps.thought", contains("one", "two", "three", "four"));
        assertEquals(4, Sql.count(db, "select count(*) from journal where store_id = ? and kind = "
                + "'context.steps_appended'", s), "one record per append, none for a rolled-back attempt");
    }

    /** The prompt's contents, from an append of one thought with {@code ?prompt=neutral}. */
    private static List<String> append(String c, String thought) {
        return json().body("{\"steps\": [{\"thought\": \"" + thought + "\"}]}").post(c + "/steps?prompt=neutral")
                .then().statusCode(200).extract().path("prompt.messages.content");
    }

    /** Which of the blocks {@code known} the prompt {@code contents} shows, in its order. */
    private static List<String> blocks(List<String> contents, String... known) {
        return contents.stream().filter(List.of(known)::contains).toList();
    }

    /**
     * Sets the memory scopes of context {@code id} in its row (null: no memory block), as another replica's change
     * would; the rows changed.
     */
    private long settings(String store, String id, String scopes) throws Exception {
        String memory = scopes == null ? "{}" : "{\"memory\": {\"scopes\": " + scopes + "}}";
        return Sql.count(db, "with u as (update context set config = (config - 'memory') || ?::jsonb "
                + "where store_id = ? and id = ? returning 1) select count(*) from u", memory, store, id);
    }

    @Test
    void aSaveMadeWithTheContextAsSessionIsAnchoredOnWhatItsPromptShowed() {
        String s = Api.newStore();
        Api.put(s, "user", "style", "{\"content\": \"Prefers short answers.\\n\"}").then().statusCode(201);
        String c = context(s, "agent-7");
        json().body("{\"memory\": {\"scopes\": [\"user\"]}}").put(c).then().statusCode(201);
        contents(c);
        json().header("Engram-Session", "telegram-c91e").body("{\"content\": \"Prefers short answers and tabs.\\n\"}")
                .put(Api.entry(s, "user", "style")).then().statusCode(200);

        JsonPath stale = ToolsApiTest.call(s, "agent-7", "{\"name\": \"memory_save\", \"scopes\": [\"user\"], "
                + "\"arguments\": {\"name\": \"style\", \"content\": \"Prefers short answers. Lives in Bristol.\\n\"}}");
        assertTrue(stale.getString("output").contains("after the block was rendered, and this write replaced that "
                + "change"), stale.getString("output"));
        given().get("/v1/stores/" + s + "/lost-updates").then().statusCode(200)
                .body("lost_updates.size()", equalTo(1))
                .body("lost_updates[0].change.session", equalTo("agent-7"));

        contents(c);
        JsonPath fresh = ToolsApiTest.call(s, "agent-7", "{\"name\": \"memory_save\", \"scopes\": [\"user\"], "
                + "\"arguments\": {\"name\": \"style\", \"content\": \"Prefers short answers, and tabs.\\n\"}}");
        assertTrue(fresh.getString("output").endsWith("; built on the memory block."), fresh.getString("output"));
        given().get("/v1/stores/" + s + "/lost-updates").then().body("lost_updates.size()", equalTo(1));
    }

    @Test
    void settingsAContextMayNotTakeAreRefusedAndWriteNothing() throws Exception {
        String s = Api.newStore();
        Api.put(s, "user", "style", "{\"content\": \"Short answers.\\n\"}").then().statusCode(201);
        Api.put(s, "project", "build", "{\"content\": \"SECRET build.\\n\"}").then().statusCode(201);
        String c = context(s, "run-1");
        json().body("{\"memory\": {\"scopes\": [\"user\", \"project\"]}}").put(c).then().statusCode(201);
        contents(c);
        String before = snapshot(s);

        String[][] refused = {
            {"{\"memory\": {\"scopes\": [\"Not Valid\"]}}", "422", "scope-format"},
            {"{\"memory\": {\"scopes\": [\"user\", \"user\"]}}", "422", "scope-repeated"},
            {"{\"memory\": {\"scopes\": [\"user\"], \"scope_max_bytes\": {\"project\": 10}}}", "422",
                "memory-cap-scope"},
            {"{\"memory\": {\"scopes\": [\"user\"], \"max_total_bytes\": -1}}", "422", "memory-negative"},
            {"{\"memory\": {\"scopes\": [\"user\"], \"scope_max_bytes\": {\"user\": -1}}}", "422", "memory-negative"},
            {"{\"memory\": {\"max_total_bytes\": 4000}}", "422", "memory-scopes-missing"},
            {"{\"memory\": {\"scopes\": [\"user\"], \"max_total_bytes\": 2000000}}", "422", "number-range"},
            {"{\"memory\": {\"scopes\": [\"user\"], \"max_total_bytes\": 50}}", "422", null},
            {"{\"memory\": {\"scope\": [\"user\"]}}", "422", null},
            {"{\"memory\": {\"scopes\": \"user\"}}", "422", null},
        };
        for (String id : List.of("run-1", "run-2")) {
            for (String[] r : refused) {
                var answer = json().body(r[0]).put(context(s, id)).then().statusCode(Integer.parseInt(r[1]));
                if (r[2] != null) {
                    answer.body("rule", equalTo(r[2]));
                }
            }
        }
        json().body("{\"memory\": {\"scopes\": [\"user\"], \"max_total_bytes\": 50}}").put(c).then()
                .body("type", equalTo("https://engram.dev/problems/render-budget"));

        String userOnly = key("memory-user-writer", "[{\"stores\": \"" + s + "\", \"role\": \"write\", "
                + "\"scopes\": [\"user\"]}]");
        given().header("Authorization", "Bearer " + userOnly).contentType("application/json")
                .body("{\"memory\": {\"scopes\": [\"project\"]}}").put(context(s, "run-3")).then().statusCode(403);
        given().header("Authorization", "Bearer " + userOnly).contentType("application/json")
                .body("{\"memory\": {\"scopes\": [\"user\"]}}").put(c).then().statusCode(403);
        String userReader = key("memory-user-reader", "[{\"stores\": \"" + s + "\", \"role\": \"read\", "
                + "\"scopes\": [\"user\"]}]");
        given().header("Authorization", "Bearer " + userReader).get(c + "/prompt").then().statusCode(403);
        given().header("Authorization", "Bearer " + userReader).get(c + "/fill").then().statusCode(403);
        assertEquals(before, snapshot(s), "refused requests wrote nothing, the session log included");

        String reader = key("memory-reader", "[{\"stores\": \"" + s + "\", \"role\": \"read\"}]");
        Api.put(s, "user", "style", "{\"content\": \"Short answers, please.\\n\"}").then().statusCode(200);
        given().header("Authorization", "Bearer " + reader).get(c + "/prompt").then().statusCode(200)
                .body("messages[0].content", equalTo(render(s, "scope=user&scope=project")));
        assertEquals(2, records(s, "run-1"), "a reader of every scope is shown the block, and it is recorded");
    }

    private static String key(String name, String grants) {
        return given().contentType("application/json").body("{\"name\": \"" + name + "\", \"grants\": " + grants
                + "}").post("/v1/keys").then().statusCode(201).extract().path("key");
    }

    /** The store's journal, contexts and session logs, as PostgreSQL holds them. */
    private String snapshot(String store) throws Exception {
        return one("select count(*) || '/' || coalesce(max(seq), 0) from journal where store_id = ?", store) + "|"
                + one("select count(*) || '/' || coalesce(md5(string_agg(id || config::text || state, ',' order by "
                        + "id)), '') from context where store_id = ?", store) + "|"
                + one("select count(*) || '/' || coalesce(max(hash), '') from session_manifest where store_id = ?",
                        store) + "|"
                + one("select coalesce(string_agg(session || seq, ',' order by session), '') from session_state "
                        + "where store_id = ?", store);
    }

    private String one(String sql, String store) throws Exception {
        return Sql.text(db, sql, store);
    }
}
