package dev.engram.contexts.rest;

import dev.engram.contexts.app.AnthropicForm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.messages.ToolCall;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Anthropic's tool ids: what the API takes, distinct ids kept distinct, a call and its result alike (item 9). */
class CallIdsTest {

    private static final String[] IDS = {"x:1", "x/1", "x_1", "x-1", "日本", "__", "_", "", "ENC-x", "call_abc",
        "toolu_01A09q90qw90lq917835lq9", "a".repeat(64), "a".repeat(65), "b".repeat(200), "b".repeat(200) + "c",
        "functions.read_file:0", "functions.read_file:1", "x_3a-1", "x_3a_1", "ENC-x_3a-1"};

    @Test
    void everyIdBecomesOneTheApiTakesAndNoTwoCollide() {
        Set<String> written = new HashSet<>();
        for (String id : IDS) {
            String cleaned = AnthropicForm.callId(id);
            assertTrue(cleaned.matches("[A-Za-z0-9_-]{1,64}"), id + " -> " + cleaned);
            assertTrue(written.add(cleaned), id + " -> " + cleaned + " collides");
            assertEquals(cleaned, AnthropicForm.callId(id), "the same id always");
        }
        assertNotEquals(AnthropicForm.callId("x:1"), AnthropicForm.callId("x/1"));
        assertNotEquals("__", AnthropicForm.callId("日本"));
    }

    @Test
    void anIdTheApiTakesIsWrittenAsItIs() {
        for (String id : List.of("call_abc", "toolu_01A09q90qw90lq917835lq9", "x-1", "a".repeat(64))) {
            assertEquals(id, AnthropicForm.callId(id));
        }
    }

    @Test
    void aCallAndItsResultCarryTheSameId() {
        JsonNode written = AnthropicForm.write(List.of(Message.user("go"),
                new Message("assistant", "", List.of(), "", List.of(),
                        List.of(new ToolCall("x:1", "a", "{}"), new ToolCall("x/1", "b", "{}")), ""),
                Message.tool("x:1", "one"), Message.tool("x/1", "two")));
        JsonNode uses = written.get("messages").get(1).get("content");
        JsonNode results = written.get("messages").get(2).get("content");
        assertEquals(uses.get(0).get("id"), results.get(0).get("tool_use_id"));
        assertEquals(uses.get(1).get("id"), results.get(1).get("tool_use_id"));
        assertNotEquals(uses.get(0).get("id"), uses.get(1).get("id"));
    }
}
