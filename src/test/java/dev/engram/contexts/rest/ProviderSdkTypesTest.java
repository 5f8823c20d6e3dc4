package dev.engram.contexts.rest;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The SDK check can fail: the providers' own request types refuse what their APIs refuse. */
class ProviderSdkTypesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void openAiAcceptsAToolExchangeAndRefusesWhatTheApiRefuses() throws Exception {
        ProviderSdkTypes.assertOpenAiSdkReads(json("""
                [{"role": "system", "content": "Be terse."}, {"role": "user", "content": "Deploy?"},
                 {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
                  "function": {"name": "deploy", "arguments": "{}"}}]},
                 {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
                 {"role": "user", "content": [{"type": "text", "text": "And now?"}]}]"""), "fine");
        refused(() -> ProviderSdkTypes.assertOpenAiSdkReads(json("[{\"role\": \"robot\", \"content\": \"a\"}]"),
                "role"));
        refused(() -> ProviderSdkTypes.assertOpenAiSdkReads(json("[{\"role\": \"user\"}]"), "content"));
        refused(() -> ProviderSdkTypes.assertOpenAiSdkReads(json("[{\"role\": \"tool\", \"content\": \"x\"}]"),
                "tool_call_id"));
        refused(() -> ProviderSdkTypes.assertOpenAiSdkReads(json("[{\"role\": \"user\", \"content\": \"a\", "
                + "\"engram\": 1}]"), "unknown member"));
        refused(() -> ProviderSdkTypes.assertOpenAiSdkReads(json("[{\"role\": \"user\", \"content\": 7}]"),
                "content type"));
    }

    @Test
    void anthropicAcceptsAToolExchangeAndRefusesWhatTheApiRefuses() throws Exception {
        ProviderSdkTypes.assertAnthropicSdkReads(json("""
                {"system": [{"type": "text", "text": "Be terse."}], "messages": [
                 {"role": "user", "content": "Deploy?"},
                 {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "deploy",
                  "input": {}}]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"},
                  {"type": "text", "text": "And now?"}]}]}"""), "fine");
        ProviderSdkTypes.assertAnthropicSdkReads(json("{\"system\": \"Be terse.\", \"messages\": [{\"role\": "
                + "\"user\", \"content\": \"a\"}]}"), "system text");
        refused(() -> ProviderSdkTypes.assertAnthropicSdkReads(json("{\"messages\": [{\"role\": \"robot\", "
                + "\"content\": \"x\"}]}"), "role"));
        refused(() -> ProviderSdkTypes.assertAnthropicSdkReads(json("{\"messages\": [{\"role\": \"user\"}]}"),
                "content"));
        refused(() -> ProviderSdkTypes.assertAnthropicSdkReads(json("{\"messages\": [{\"role\": \"user\", "
                + "\"content\": [{\"type\": \"tool_result\", \"content\": \"ok\"}]}]}"), "tool_use_id"));
        refused(() -> ProviderSdkTypes.assertAnthropicSdkReads(json("{\"messages\": [{\"role\": \"user\", "
                + "\"content\": [{\"type\": \"picture\", \"text\": \"x\"}]}]}"), "block type"));
        refused(() -> ProviderSdkTypes.assertAnthropicSdkReads(json("{\"messages\": [{\"role\": \"user\", "
                + "\"content\": \"a\", \"name\": \"bob\"}]}"), "unknown member"));
    }

    private static void refused(org.junit.jupiter.api.function.Executable check) {
        AssertionError e = assertThrows(AssertionError.class, check);
        assertTrue(e.getMessage().contains("SDK"), e.getMessage());
    }
}
