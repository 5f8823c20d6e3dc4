package dev.engram.tools.rest;

import dev.engram.rest.Api;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The memory tools over REST: definitions in each model API's shape, and calls as a model makes them. */
@QuarkusTest
public class ToolsApiTest {

    public static JsonPath call(String store, String session, String body) {
        var request = json().body(body);
        if (session != null) {
            request.header("Engram-Session", session);
        }
        return request.post("/v1/stores/" + store + "/tools/call").then().statusCode(200).extract().jsonPath();
    }

    @Test
    void aBankAloneListsTheRecallToolsAndTheUsageTellsHowToUseThem() {
        String s = Api.newStore();
        String tools = "/v1/stores/" + s + "/tools";
        given().get(tools + "?bank=user:alice").then().statusCode(200)
                .body("tools.name", contains("memory_remember", "memory_recall"))
                .body("usage", containsString("memory_recall")).body("usage", containsString("memory_remember"))
                .body("usage", not(containsString("memory_patch")))
                .body("usage", not(containsString("Memory block")));
        given().get(tools + "?context=run-1&format=anthropic").then().statusCode(200)
                .body("tools.name", contains("tool_result_read"))
                .body("usage", containsString("tool_result_read")).body("usage", not(containsString("memory_")));
        given().get(tools + "?scope=user&bank=user:alice&context=run-1").then().statusCode(200)
                .body("tools.name", contains("memory_save", "memory_patch", "memory_forget", "memory_search",
                        "memory_remember", "memory_recall", "tool_result_read"))
                .body("usage", containsString("memory_patch")).body("usage", containsString("memory_recall"))
                .body("usage", containsString("tool_result_read"));
        given().get(tools + "?scope=user").then().statusCode(200)
                .body("usage", not(containsString("memory_recall")));
        given().get(tools + "?bank=User:x").then().statusCode(422).body("rule", equalTo("bank-format"));
        given().get(tools + "?read_scope=rules").then().statusCode(422).body("rule", equalTo("scopes-missing"));
    }

    @Test
    void definitionsComeInEachShapeWithTheScopesAsAnEnum() {
        String s = Api.newStore();
        String base = "/v1/stores/" + s + "/tools?scope=user&scope=project&read_scope=rules";
        given().get(base).then().statusCode(200)
                .body("format", equalTo("json-schema"))
                .body("tools.name", contains("memory_save", "memory_patch", "memory_forget", "memory_search"))
                .body("tools[0].input_schema.properties.scope.enum", contains("user", "project"))
                .body("tools[0].input_schema.required", contains("scope", "name", "content"))
                .body("tools[0].input_schema.additionalProperties", equalTo(false))
                .body("tools[3].input_schema.properties.scopes.items.enum", contains("user", "project", "rules"))
                .body("tools[3].annotations.read_only_hint", equalTo(true))
                .body("tools[0].annotations.destructive_hint", equalTo(true))
                .body("tools[1].annotations.destructive_hint", equalTo(false))
                .body("usage", containsString("memory_patch"));
        given().get(base + "&format=openai-chat").then().statusCode(200)
                .body("tools[0].type", equalTo("function"))
                .body("tools[0].function.name", equalTo("memory_save"))
                .body("tools[0].function.parameters.properties.scope.enum", contains("user", "project"));
        given().get(base + "&format=openai-responses").then().statusCode(200)
                .body("tools[1].name", equalTo("memory_patch"))
                .body("tools[1].parameters.required", contains("scope", "name", "old_text", "new_text"))
                .body("tools[1].strict", equalTo(false));
        given().get(base + "&format=anthropic").then().statusCode(200)
                .body("tools[2].name", equalTo("memory_forget"))
                .body("tools[2].input_schema.type", equalTo("object"))
                .body("tools[2]", not(hasKey("annotations")));
        given().get("/v1/stores/" + s + "/tools?scope=user").then().statusCode(200)
                .body("tools[0].input_schema.required", contains("name", "content"));
        given().get(base + "&format=gemini").then().statusCode(422).body("rule", equalTo("tool-format"));
        given().get("/v1/stores/" + s + "/tools").then().statusCode(422).body("rule", equalTo("scopes-missing"));
        given().get(base + "&read_scope=user").then().statusCode(422).body("rule", equalTo("scope-repeated"));
    }

    @Test
    void callsWriteThroughTheJournalAndCarryTheirRecordAsDetails() {
        String s = Api.newStore();
        JsonPath saved = call(s, "slack-7f3a", "{\"name\":\"memory_save\",\"scopes\":[\"user\"],\"arguments\":"
                + "{\"name\":\"style\",\"content\":\"Short answers.\",\"meta\":{\"description\":\"How to answer\"}}}");
        assertFalse(saved.getBoolean("is_error"));
        assertTrue(saved.getString("output").startsWith("Saved user/style (14 of 4096 bytes"), saved.getString("output"));
        assertEquals("memory_save", saved.getString("details.tool"));
        assertEquals(1, saved.getInt("details.change.seq"));
        assertEquals("slack-7f3a", saved.getString("details.change.session"));

        JsonPath patched = call(s, "slack-7f3a", "{\"name\":\"memory_patch\",\"scopes\":[\"user\"],\"arguments\":"
                + "\"{\\\"name\\\":\\\"style\\\",\\\"old_text\\\":\\\"Short\\\",\\\"new_text\\\":\\\"Brief\\\"}\"}");
        assertFalse(patched.getBoolean("is_error"), "arguments as the JSON string a model emitted");
        assertEquals("Brief answers.", patched.getString("details.change.entry.content"));

        JsonPath found = call(s, null, "{\"name\":\"memory_search\",\"scopes\":[\"user\"],\"arguments\":"
                + "{\"query\":\"brief\"}}");
        assertTrue(found.getString("output").contains("user/style (14 bytes): How to answer"));
        org.junit.jupiter.api.Assertions.assertNull(found.get("details"));

        JsonPath forgot = call(s, null, "{\"name\":\"memory_forget\",\"scopes\":[\"user\"],\"arguments\":"
                + "{\"name\":\"style\"}}");
        assertTrue(forgot.getBoolean("details.change.entry.deleted"));
        given().get("/v1/stores/" + s + "/journal").then().body("records.seq", contains(1, 2, 3));
    }

    @Test
    void mistakesAModelCanFixAreErrorTextNotHttpErrors() {
        String s = Api.newStore();
        String[][] cases = {
            {"{\"name\":\"memory_save\",\"scopes\":[\"user\",\"project\"],\"arguments\":{\"name\":\"a\",\"content\":\"x\"}}",
                "scope is required"},
            {"{\"name\":\"memory_save\",\"scopes\":[\"user\"],\"read_scopes\":[\"rules\"],\"arguments\":{\"scope\":"
                + "\"rules\",\"name\":\"a\",\"content\":\"x\"}}", "scope rules is read-only"},
            {"{\"name\":\"memory_save\",\"scopes\":[\"user\"],\"arguments\":{\"name\":\"Not Kebab\",\"content\":\"x\"}}",
                "is not kebab-case"},
            {"{\"name\":\"memory_save\",\"scopes\":[\"user\"],\"arguments\":{\"name\":\"a\",\"content\":\""
                + "x".repeat(5000) + "\"}}", "5000 bytes, over the limit of 4096 bytes"},
            {"{\"name\":\"memory_patch\",\"scopes\":[\"user\"],\"arguments\":{\"name\":\"a\",\"old_text\":\"x\","
                + "\"new_text\":\"y\"}}", "memory_save creates one"},
            {"{\"name\":\"memory_save\",\"scopes\":[\"user\"],\"arguments\":\"{not json\"}", "not a JSON object"},
            {"{\"name\":\"memory_save\",\"scopes\":[\"user\"],\"arguments\":[1,2]}", "not a JSON object"},
            {"{\"name\":\"memory_nothing\",\"scopes\":[\"user\"],\"arguments\":{}}", "There is no tool"},
            {"{\"name\":\"memory_search\",\"scopes\":[\"user\"],\"arguments\":{\"query\":\"a\\u0000b\"}}",
                "NUL"},
        };
        for (String[] c : cases) {
            JsonPath r = call(s, null, c[0]);
            assertTrue(r.getBoolean("is_error"), c[0]);
            assertTrue(r.getString("output").contains(c[1]), r.getString("output"));
            org.junit.jupiter.api.Assertions.assertNull(r.get("details"));
        }
        given().get("/v1/stores/" + s).then().statusCode(404);
        json().body("{\"arguments\":{}}").post("/v1/stores/" + s + "/tools/call").then().statusCode(422)
                .body("rule", equalTo("tool-missing"));
    }

    @Test
    void twoSessionsSavingOneEntryFromOneRenderLeaveALostUpdateAndTheSecondIsTold() {
        String s = Api.newStore();
        Api.put(s, "user", "style", "{\"content\":\"Prefers short answers.\\n\"}").then().statusCode(201);
        for (String session : List.of("slack-7f3a", "telegram-c91e")) {
            json().post("/v1/stores/" + s + "/sessions/" + session + "/render?scope=user").then().statusCode(200);
        }
        JsonPath first = call(s, "telegram-c91e", "{\"name\":\"memory_save\",\"scopes\":[\"user\"],\"arguments\":"
                + "{\"name\":\"style\",\"content\":\"Prefers short answers and tabs.\\n\"}}");
        assertTrue(first.getString("output").endsWith("; built on the memory block."), first.getString("output"));
        JsonPath second = call(s, "slack-7f3a", "{\"name\":\"memory_save\",\"scopes\":[\"user\"],\"arguments\":"
                + "{\"name\":\"style\",\"content\":\"Prefers short answers. Lives in Bristol.\\n\"}}");
        assertTrue(second.getString("output").contains("after the block was rendered, and this write replaced that "
                + "change"), second.getString("output"));
        given().get("/v1/stores/" + s + "/lost-updates").then().statusCode(200)
                .body("lost_updates.size()", equalTo(1))
                .body("lost_updates[0].change.seq", equalTo(second.getInt("details.change.seq")))
                .body("lost_updates[0].change.session", equalTo("slack-7f3a"))
                .body("lost_updates[0].over", equalTo(first.getString("details.change.entry.hash")));
    }

    @Test
    void aSaveAfterATurnWithoutTheBlockIsBuiltOnItsOwnReadNotOnTheBlockSentBefore() {
        String s = Api.newStore();
        Api.put(s, "user", "style", "{\"content\":\"Prefers short answers.\\n\"}").then().statusCode(201);
        String session = "/v1/stores/" + s + "/sessions/slack-7f3a/render?scope=user";
        json().post(session).then().statusCode(200);
        JsonPath other = call(s, "telegram-c91e", "{\"name\":\"memory_save\",\"scopes\":[\"user\"],\"arguments\":"
                + "{\"name\":\"style\",\"content\":\"Prefers short answers and tabs.\\n\"}}");
        assertFalse(other.getBoolean("is_error"), other.getString("output"));
        // The product had no room for memory on this turn: it records that the model saw no block.
        json().accept("application/json").post(session + "&omit=block").then().statusCode(200)
                .body("block", equalTo("")).body("recorded", equalTo(true))
                .body("manifest.entries.size()", equalTo(0))
                .body("manifest.omitted[0].name", equalTo("style"))
                .body("manifest.omitted[0].reason", equalTo("block"));
        JsonPath save = call(s, "slack-7f3a", "{\"name\":\"memory_save\",\"scopes\":[\"user\"],\"arguments\":"
                + "{\"name\":\"style\",\"content\":\"Prefers short answers. Lives in Bristol.\\n\"}}");
        assertFalse(save.getBoolean("is_error"), save.getString("output"));
        assertTrue(save.getString("output").endsWith("; built on the stored entry, which the memory block did not "
                + "show."), save.getString("output"));
        assertEquals(other.getString("details.change.entry.hash"), save.getString("details.change.prev"),
                "based on what the save read, the other session's write");
        given().get("/v1/stores/" + s + "/lost-updates").then().statusCode(200).body("lost_updates.size()", equalTo(0));
    }

    @Test
    void twoSessionsPatchingOneEntryConcurrentlyKeepBothEdits() throws Exception {
        String s = Api.newStore();
        StringBuilder content = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            content.append("item-").append(i).append(": todo\\n");
        }
        Api.put(s, "project", "tasks", "{\"content\":\"" + content + "\"}").then().statusCode(201);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<JsonPath>> results = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            int item = i;
            results.add(pool.submit(() -> {
                go.await();
                return call(s, "session-" + item, "{\"name\":\"memory_patch\",\"scopes\":[\"project\"],\"arguments\":"
                        + "{\"name\":\"tasks\",\"old_text\":\"item-" + item + ": todo\",\"new_text\":\"item-" + item
                        + ": done\"}}");
            }));
        }
        go.countDown();
        for (Future<JsonPath> f : results) {
            assertFalse(f.get().getBoolean("is_error"), f.get().getString("output"));
        }
        pool.shutdown();
        String after = given().get(Api.entry(s, "project", "tasks")).then().extract().path("content");
        for (int i = 0; i < 8; i++) {
            assertTrue(after.contains("item-" + i + ": done"), after);
        }
        given().get("/v1/stores/" + s + "/lost-updates").then().body("lost_updates.size()", equalTo(0));
    }
}
