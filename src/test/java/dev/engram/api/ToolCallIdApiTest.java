package dev.engram.api;

import static dev.engram.api.Api.json;
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
}
