package dev.engram.contexts.rest;

import dev.engram.rest.Api;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** A step whose call has no id (Ollama's have none) over HTTP: stored as a call, its output in every prompt form. */
@QuarkusTest
class ToolCallIdApiTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aCallWithoutAnIdIsStoredWithAStableIdAndItsOutputIsInThePrompt() throws Exception {
        String c = "/v1/stores/" + Api.newStore() + "/contexts/run-1";
        json().body("{\"pruning\": {\"keep_last_n\": 0}}").put(c).then().statusCode(201);
        json().body("{\"steps\": [{\"thought\": \"Reading.\", \"action\": {\"name\": \"read_file\", \"input\": "
                + "{\"path\": \"a.txt\"}}, \"observation\": \"hello from a.txt\"}]}").post(c + "/steps").then()
                .statusCode(200);
        given().get(c + "/steps").then().statusCode(200).body("steps[0].action.id", equalTo("call_engram_0"))
                .body("steps[0].action.name", equalTo("read_file"));
        JsonNode openAi = JSON.readTree(given().get(c + "/prompt?format=openai-chat").then().statusCode(200)
                .extract().asString());
        JsonNode messages = openAi.get("messages");
        JsonNode tool = messages.get(messages.size() - 1);
        assertEquals("tool", tool.get("role").asText(), messages.toString());
        assertEquals("call_engram_0", tool.get("tool_call_id").asText());
        assertEquals("hello from a.txt", tool.get("content").asText());
        ProviderShapes.assertOpenAiValid(messages, "prompt");
        JsonNode anthropic = JSON.readTree(given().get(c + "/prompt?format=anthropic").then().statusCode(200)
                .extract().asString());
        assertEquals(messages, JSON.readTree(given().get(c + "/prompt?format=openai-chat").then().statusCode(200)
                .extract().asString()).get("messages"), "a render is stable");
        assertEquals("call_engram_0", anthropic.at("/messages/1/content/0/tool_use_id").asText(), anthropic.toString());
    }

    @Test
    void aCachedCallWithoutAnIdIsCachedUnderItsGeneratedIdAndJournaledAsStored() throws Exception {
        String s = Api.newStore();
        String c = "/v1/stores/" + s + "/contexts/run-1";
        json().body("{}").put(c).then().statusCode(201);
        json().body("{\"steps\": [{\"thought\": \"Reading.\"}, {\"action\": {\"name\": \"read_file\", \"input\": "
                + "{\"path\": \"b.txt\"}}, \"observation\": \"one\\ntwo\\nthree\", \"cache\": true}]}")
                .post(c + "/steps").then().statusCode(200);
        String hash = dev.engram.contexts.cache.ToolResultCache.contentHash("read_file", "one\ntwo\nthree");
        given().get(c + "/steps").then().statusCode(200).body("steps[1].action.id", equalTo("call_engram_1"))
                .body("steps[1].cache_hash", equalTo(hash.substring(0, 4)));
        json().body("{\"name\": \"tool_result_read\", \"context\": \"run-1\", \"arguments\": {\"hash\": \""
                + hash.substring(0, 4) + "\", \"start_line\": 2, \"num_lines\": 1}}").post("/v1/stores/" + s
                + "/tools/call").then().statusCode(200).body("is_error", equalTo(false))
                .body("output", org.hamcrest.Matchers.containsString("two"));
        JsonNode journal = JSON.readTree(given().get("/v1/stores/" + s + "/journal").then().statusCode(200)
                .extract().asString());
        JsonNode appended = null;
        for (JsonNode r : journal.get("records")) {
            if (r.path("kind").asText().equals("context.steps_appended")) {
                appended = r;
            }
        }
        org.junit.jupiter.api.Assertions.assertTrue(appended.toString().contains("\"call_engram_1\""),
                "the journal carries the step as stored: " + appended);
    }
}
