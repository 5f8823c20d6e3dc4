package dev.engram.contexts.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What the providers require of a request's messages about tool calls, checked on JSON as it would be sent: the
 * rules OpenAI's chat completions and Anthropic's messages enforce (a request breaking them is a 400 there). Each
 * check first has the provider's official SDK read the JSON into its request type ({@link ProviderSdkTypes}).
 */
final class ProviderShapes {

    private ProviderShapes() {
    }

    /**
     * OpenAI chat: an assistant message's {@code tool_calls} are answered by {@code tool} messages right after it,
     * each id exactly once (unless it is the last message, still waiting for them); no {@code tool} message
     * anywhere else.
     */
    static void assertOpenAiValid(JsonNode messages, String what) {
        ProviderSdkTypes.assertOpenAiSdkReads(messages, what);
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            String role = m.path("role").asText();
            assertTrue(!role.equals("tool"), what + ": message " + i + " is a tool result whose call is not before it: "
                    + messages);
            JsonNode calls = m.path("tool_calls");
            if (role.equals("assistant") && calls.isArray() && !calls.isEmpty()) {
                List<String> ids = new ArrayList<>();
                calls.forEach(c -> ids.add(c.path("id").asText()));
                List<String> answered = new ArrayList<>();
                int j = i + 1;
                while (j < messages.size() && messages.get(j).path("role").asText().equals("tool")) {
                    answered.add(messages.get(j++).path("tool_call_id").asText());
                }
                if (j < messages.size() || !answered.isEmpty()) {
                    assertEquals(ids.stream().sorted().toList(), answered.stream().sorted().toList(),
                            what + ": the results of message " + i + " in " + messages);
                }
                i = j - 1;
            }
        }
    }

    /**
     * Anthropic messages: the first turn is the user's; an assistant turn's {@code tool_use} blocks are answered in
     * the next (user) turn by {@code tool_result} blocks that come first in it, each id exactly once (unless it is
     * the last turn); no {@code tool_result} block answers anything else; ids are {@code [A-Za-z0-9_-]+}.
     */
    static void assertAnthropicValid(JsonNode request, String what) {
        ProviderSdkTypes.assertAnthropicSdkReads(request, what);
        JsonNode turns = request.path("messages");
        assertTrue(turns.size() > 0, what);
        assertEquals("user", turns.get(0).path("role").asText(), what + ": the first turn in " + turns);
        List<String> open = List.of();
        for (int i = 0; i < turns.size(); i++) {
            JsonNode turn = turns.get(i);
            List<String> uses = new ArrayList<>();
            List<String> results = new ArrayList<>();
            boolean other = false;
            for (JsonNode block : blocks(turn)) {
                String type = block.path("type").asText();
                if (type.equals("tool_use")) {
                    uses.add(block.path("id").asText());
                    assertTrue(block.path("id").asText().matches("[A-Za-z0-9_-]+"), what + ": " + block);
                } else if (type.equals("tool_result")) {
                    assertTrue(!other, what + ": turn " + i + " has a tool_result after other blocks: " + turn);
                    results.add(block.path("tool_use_id").asText());
                } else {
                    other = true;
                }
            }
            if (turn.path("role").asText().equals("user")) {
                assertEquals(open.stream().sorted().toList(), results.stream().sorted().toList(),
                        what + ": turn " + i + " answers " + results + " where " + open + " were called: " + turns);
                open = List.of();
            } else {
                assertTrue(open.isEmpty(), what + ": turn " + i + " follows calls left unanswered: " + turns);
                open = uses;
            }
        }
    }

    /**
     * A prompt as Engram answers it in {@code format}: an {@code openai-chat} one's messages and an
     * {@code anthropic} one checked as above ({@code neutral} or no format: nothing to check).
     */
    static void assertValid(String format, JsonNode prompt, String what) {
        switch (format) {
            case "openai-chat" -> assertOpenAiValid(prompt.path("messages"), what);
            case "anthropic" -> assertAnthropicValid(prompt, what);
            default -> {
            }
        }
    }

    private static List<JsonNode> blocks(JsonNode turn) {
        List<JsonNode> out = new ArrayList<>();
        if (turn.path("content").isArray()) {
            turn.path("content").forEach(out::add);
        }
        return out;
    }
}
