package dev.engram.contexts.rest;

import dev.engram.rest.Api;
import static dev.engram.rest.Api.json;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.tokens.TokenCounter;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /v1/compact} over HTTP without a summarizer: both formats round-trip (a kept message comes back exactly
 * as sent, tool calls, tool_use and tool_result blocks included), strategies and budgets apply and the last message
 * stays, and malformed requests are refused with the member at fault.
 */
@QuarkusTest
class CompactApiTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static final String OPENAI = """
            [{"role": "system", "content": "You are terse."},
             {"role": "user", "content": "Read a.txt"},
             {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
               "function": {"name": "read_file", "arguments": "{\\"path\\": \\"a.txt\\"}"}}]},
             {"role": "tool", "tool_call_id": "call_1", "content": "hello"},
             {"role": "assistant", "content": "It says hello."},
             {"role": "user", "content": [{"type": "text", "text": "And this?"},
               {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}]},
             {"role": "assistant", "content": "A picture.", "refusal": null},
             {"role": "user", "name": "leo", "content": "Thanks."}]""";

    static final String ANTHROPIC = """
            [{"role": "user", "content": "Read a.txt"},
             {"role": "assistant", "content": [{"type": "thinking", "thinking": "I should read it.", "signature": "s1"},
               {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "a.txt"}}]},
             {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "hello"}]},
             {"role": "assistant", "content": "It says hello."},
             {"role": "user", "content": "Now b.txt"},
             {"role": "assistant", "content": [{"type": "text", "text": "Reading."},
               {"type": "tool_use", "id": "toolu_2", "name": "read_file", "input": {"path": "b.txt"}}]},
             {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_2", "is_error": true,
               "content": [{"type": "text", "text": "no such file"}]}]}]""";

    static JsonNode post(String body, int status) throws Exception {
        return JSON.readTree(json().body(body).post("/v1/compact").then().statusCode(status).extract().asString());
    }

    @Test
    void anOpenAiConversationComesBackWithTheKeptMessagesAsSentAndANoteForTheOmitted() throws Exception {
        JsonNode sent = JSON.readTree(OPENAI);
        JsonNode reply = post("{\"format\": \"openai-chat\", \"messages\": " + OPENAI + ", \"strategy\": {\"name\": "
                + "\"sliding_window\", \"keep_first\": 1, \"keep_last\": 5}}", 200);
        JsonNode got = reply.get("messages");
        assertEquals("openai-chat", reply.get("format").asText());
        // keep_last 5 would start at call_1's result: the tail grows back to the call
        assertEquals(8, got.size());
        assertEquals(sent.get(0), got.get(0));
        assertEquals(JSON.readTree("{\"role\": \"system\", \"content\": \"[... 1 earlier conversation messages "
                + "omitted by sliding-window compaction ...]\"}"), got.get(1));
        for (int i = 0; i < 6; i++) {
            assertEquals(sent.get(2 + i), got.get(2 + i));
        }
        assertEquals(true, reply.get("tokens_after").asInt() > 765, "the image is still counted");
        ProviderShapes.assertOpenAiValid(got, "keep_last 5");
    }

    @Test
    void aConversationThatNeedsNothingComesBackWhole() throws Exception {
        JsonNode reply = post("{\"format\": \"openai-chat\", \"messages\": " + OPENAI + ", \"budget_tokens\": 100000}",
                200);
        assertEquals(JSON.readTree(OPENAI), reply.get("messages"));
        assertEquals(reply.get("tokens_before"), reply.get("tokens_after"));
    }

    @Test
    void anAnthropicConversationKeepsItsSystemItsToolUseAndToolResultBlocks() throws Exception {
        JsonNode sent = JSON.readTree(ANTHROPIC);
        JsonNode reply = post("{\"format\": \"anthropic\", \"system\": \"You are terse.\", \"messages\": " + ANTHROPIC
                + ", \"strategy\": {\"name\": \"sliding_window\", \"keep_first\": 2, \"keep_last\": 3}}", 200);
        assertEquals("anthropic", reply.get("format").asText());
        assertEquals("You are terse.", reply.get("system").asText());
        JsonNode got = reply.get("messages");
        assertEquals(5, got.size());
        assertEquals(sent.get(0), got.get(0));
        assertEquals(JSON.readTree("{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"[... 3 "
                + "earlier conversation messages omitted by sliding-window compaction ...]\"}]}"), got.get(1));
        assertEquals(sent.get(4), got.get(2));
        assertEquals(sent.get(5), got.get(3));
        assertEquals(sent.get(6), got.get(4));
    }

    @Test
    void anAnthropicSystemOfBlocksComesBackAsSent() throws Exception {
        String system = "[{\"type\": \"text\", \"text\": \"You are terse.\", \"cache_control\": {\"type\": "
                + "\"ephemeral\"}}]";
        JsonNode reply = post("{\"format\": \"anthropic\", \"system\": " + system + ", \"messages\": " + ANTHROPIC
                + "}", 200);
        assertEquals(JSON.readTree(system), reply.get("system"));
        assertEquals(JSON.readTree(ANTHROPIC), reply.get("messages"));
    }

    @Test
    void aBudgetDropsTheOldestMessagesButNeverTheLastNorTheInstructions() throws Exception {
        JsonNode sent = JSON.readTree(OPENAI);
        JsonNode tight = post("{\"format\": \"openai-chat\", \"messages\": " + OPENAI + ", \"budget_tokens\": 1}", 200);
        assertEquals(List.of(sent.get(0), sent.get(7)), List.of(tight.get("messages").get(0),
                tight.get("messages").get(1)));
        assertEquals(2, tight.get("messages").size());
        assertEquals(false, tight.get("budget_met").asBoolean(), "the answer says the budget could not be met");
        assertEquals(1, tight.get("budget_tokens").asInt());

        JsonNode two = post("{\"format\": \"openai-chat\", \"messages\": " + OPENAI + ", \"budget_tokens\": 30}", 200);
        JsonNode got = two.get("messages");
        assertEquals(List.of(sent.get(0), sent.get(6), sent.get(7)), List.of(got.get(0), got.get(1), got.get(2)));
        assertEquals(true, two.get("tokens_after").asInt() <= 30);
        assertEquals(true, two.get("budget_met").asBoolean());
        assertEquals(true, post("{\"format\": \"openai-chat\", \"messages\": " + OPENAI + "}", 200)
                .get("budget_met").asBoolean(), "no budget is always met");
    }

    @Test
    void aTokenizerCanBeNamed() throws Exception {
        JsonNode reply = post("{\"format\": \"openai-chat\", \"messages\": [{\"role\": \"user\", \"content\": "
                + "\"hello world\"}], \"token_counter\": \"tiktoken/o200k_base\"}", 200);
        assertEquals(TokenCounter.named("tiktoken/o200k_base").countMessages(List.of(Message.user("hello world"))),
                reply.get("tokens_before").asInt());
        assertEquals(TokenCounter.named("tiktoken/o200k_base").count("user") + 2 + 4,
                reply.get("tokens_before").asInt());
    }

    @Test
    void aSummarizingStrategyWithoutASummarizerFallsBackAndSaysSo() throws Exception {
        JsonNode sent = JSON.readTree(OPENAI);
        JsonNode reply = post("{\"format\": \"openai-chat\", \"messages\": " + OPENAI + ", \"strategy\": {\"name\": "
                + "\"summarization\", \"keep_last\": 2}}", 200);
        JsonNode got = reply.get("messages");
        assertEquals(sent.get(0), got.get(0));
        assertEquals("[... 5 earlier conversation messages omitted: no summarizer ...]", got.get(1).get("content")
                .asText());
        assertEquals(List.of(sent.get(6), sent.get(7)), List.of(got.get(2), got.get(3)));
        assertEquals(false, reply.get("summarized").asBoolean());
        assertEquals(CompactResource.NO_SUMMARIZER, reply.get("summary_error").asText());

        JsonNode chosen = post("{\"format\": \"openai-chat\", \"messages\": " + OPENAI + ", \"strategy\": {\"name\": "
                + "\"hierarchical\", \"summarizer\": \"none\"}}", 200);
        assertEquals(false, chosen.get("summarized").asBoolean());
        assertEquals(false, chosen.has("summary_error"), "none was asked for: " + chosen);
        ProviderShapes.assertOpenAiValid(chosen.get("messages"), "hierarchical");
        json().body("{\"format\": \"openai-chat\", \"messages\": " + OPENAI + ", \"strategy\": {\"name\": "
                + "\"summarization\", \"summarizer\": {\"model\": \"gpt-4o-mini\"}}}").post("/v1/compact").then()
                .statusCode(409).body("type", containsString("summarizer-not-configured"));
        json().body("{\"format\": \"openai-chat\", \"messages\": " + OPENAI + ", \"strategy\": {\"name\": "
                + "\"summarization\", \"summarizer\": {\"base_url\": \"http://elsewhere\"}}}").post("/v1/compact")
                .then().statusCode(422).body("field", equalTo("strategy.summarizer.base_url"));
    }

    /** A conversation of {@code exchanges} tool-using exchanges after a system and a developer message. */
    static String toolConversation(int exchanges) {
        StringBuilder m = new StringBuilder("[{\"role\": \"system\", \"content\": \"Never deploy on Friday.\"}, "
                + "{\"role\": \"developer\", \"content\": \"Answer in English.\"}");
        for (int i = 1; i <= exchanges; i++) {
            m.append(", {\"role\": \"user\", \"content\": \"Question ").append(i).append(" about the build\"}");
            int calls = 1 + i % 3;
            m.append(", {\"role\": \"assistant\", \"content\": null, \"tool_calls\": [");
            for (int c = 0; c < calls; c++) {
                m.append(c == 0 ? "" : ", ").append("{\"id\": \"call_").append(i).append('_').append(c)
                        .append("\", \"type\": \"function\", \"function\": {\"name\": \"read_file\", "
                                + "\"arguments\": \"{}\"}}");
            }
            m.append("]}");
            for (int c = 0; c < calls; c++) {
                m.append(", {\"role\": \"tool\", \"tool_call_id\": \"call_").append(i).append('_').append(c)
                        .append("\", \"content\": \"file ").append(c).append(" of exchange ").append(i)
                        .append(" with some text\"}");
            }
            m.append(", {\"role\": \"assistant\", \"content\": \"Answer ").append(i).append(".\"}");
        }
        return m.append("]").toString();
    }

    /** The same conversation in Anthropic's form (system on top, results in user turns). */
    static String anthropicToolConversation(int exchanges) {
        StringBuilder m = new StringBuilder("[");
        for (int i = 1; i <= exchanges; i++) {
            int calls = 1 + i % 3;
            m.append(i == 1 ? "" : ", ").append("{\"role\": \"user\", \"content\": \"Question ").append(i)
                    .append("\"}, {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"Reading.\"}");
            for (int c = 0; c < calls; c++) {
                m.append(", {\"type\": \"tool_use\", \"id\": \"toolu_").append(i).append('_').append(c)
                        .append("\", \"name\": \"read_file\", \"input\": {}}");
            }
            m.append("]}, {\"role\": \"user\", \"content\": [");
            for (int c = 0; c < calls; c++) {
                m.append(c == 0 ? "" : ", ").append("{\"type\": \"tool_result\", \"tool_use_id\": \"toolu_").append(i)
                        .append('_').append(c).append("\", \"content\": \"file ").append(c).append("\"}");
            }
            m.append(i % 2 == 0 ? ", {\"type\": \"text\", \"text\": \"And go on.\"}]}" : "]}");
            m.append(", {\"role\": \"assistant\", \"content\": \"Answer ").append(i).append(".\"}");
        }
        return m.append("]").toString();
    }

    @Test
    void noCompactionOfAToolUsingConversationIsRefusedByItsProvider() throws Exception {
        List<String> strategies = List.of("{}", "{\"name\": \"sliding_window\", \"keep_first\": 4, \"keep_last\": 3}",
                "{\"name\": \"sliding_window\", \"keep_first\": 1, \"keep_last\": 1}",
                "{\"name\": \"summarization\", \"keep_last\": 4, \"summarizer\": \"none\"}",
                "{\"name\": \"hierarchical\", \"summarizer\": \"none\"}");
        for (int exchanges : new int[] {3, 6, 9}) {
            JsonNode openAi = JSON.readTree(toolConversation(exchanges));
            for (String strategy : strategies) {
                for (int budget : new int[] {0, 60, 200, 400}) {
                    String what = exchanges + " exchanges, " + strategy + ", budget " + budget;
                    JsonNode reply = post("{\"format\": \"openai-chat\", \"messages\": " + openAi + ", \"strategy\": "
                            + strategy + ", \"budget_tokens\": " + budget + "}", 200);
                    ProviderShapes.assertOpenAiValid(reply.get("messages"), what);
                    assertEquals(openAi.get(0), reply.get("messages").get(0), what + ": the system prompt verbatim");
                    assertEquals(openAi.get(1), reply.get("messages").get(1), what + ": the developer's verbatim");
                    assertEquals(reply.get("tokens_after").asInt() <= budget || budget == 0,
                            reply.get("budget_met").asBoolean(), what);

                    JsonNode anthropic = post("{\"format\": \"anthropic\", \"system\": \"Never deploy on Friday.\", "
                            + "\"messages\": " + anthropicToolConversation(exchanges) + ", \"strategy\": " + strategy
                            + ", \"budget_tokens\": " + budget + "}", 200);
                    ProviderShapes.assertAnthropicValid(anthropic, what);
                    assertTrue(anthropic.get("system").asText().startsWith("Never deploy on Friday."), what);
                }
            }
        }
    }

    @Test
    void refusalsNameTheMemberAtFault() {
        refused("{\"format\": \"openai-chat\", \"messages\": [], \"strategy\": {\"name\": \"lifo\"}}",
                "strategy-unknown", "strategy.name");
        refused("{\"format\": \"openai-chat\", \"messages\": [], \"strategy\": {\"name\": \"sliding_window\", "
                + "\"keep_last\": -1}}", "strategy-negative", "strategy.keep_last");
        refused("{\"format\": \"openai-chat\", \"messages\": [], \"strategy\": {\"keep_lots\": 1}}",
                "unknown-member", "strategy.keep_lots");
        refused("{\"format\": \"gemini\", \"messages\": []}", "format-unknown", "format");
        refused("{\"messages\": []}", "format-unknown", "format");
        refused("{\"format\": \"openai-chat\"}", "messages-missing", "messages");
        refused("{\"format\": \"openai-chat\", \"messages\": [], \"budget_tokens\": -5}", "budget-negative",
                "budget_tokens");
        refused("{\"format\": \"openai-chat\", \"messages\": [], \"token_counter\": \"words\"}",
                "token-counter-unknown", "token_counter");
        refused("{\"format\": \"openai-chat\", \"system\": \"s\", \"messages\": []}", "system-member", "system");
        refused("{\"format\": \"openai-chat\", \"messages\": [{\"role\": \"user\", \"content\": \"a\"}, "
                + "{\"content\": \"b\"}]}", "message-malformed", "messages.1.role");
        refused("{\"format\": \"openai-chat\", \"messages\": [{\"role\": \"robot\", \"content\": \"a\"}]}",
                "message-malformed", "messages.0.role");
        refused("{\"format\": \"openai-chat\", \"messages\": [42]}", "message-malformed", "messages.0");
        refused("{\"format\": \"openai-chat\", \"messages\": [{\"role\": \"user\", \"content\": 7}]}",
                "message-malformed", "messages.0.content");
        refused("{\"format\": \"openai-chat\", \"messages\": [{\"role\": \"user\", \"content\": [{\"type\": "
                + "\"text\"}]}]}", "message-malformed", "messages.0.content.0.text");
        refused("{\"format\": \"openai-chat\", \"messages\": [{\"role\": \"assistant\", \"tool_calls\": [{\"id\": "
                + "\"c1\"}]}]}", "message-malformed", "messages.0.tool_calls.0.function");
        refused("{\"format\": \"openai-chat\", \"messages\": [{\"role\": \"tool\", \"content\": \"x\"}]}",
                "message-malformed", "messages.0.tool_call_id");
        refused("{\"format\": \"anthropic\", \"messages\": [{\"role\": \"system\", \"content\": \"x\"}]}",
                "message-malformed", "messages.0.role");
        refused("{\"format\": \"anthropic\", \"messages\": [{\"role\": \"user\"}]}", "message-malformed",
                "messages.0.content");
        refused("{\"format\": \"anthropic\", \"messages\": [{\"role\": \"assistant\", \"content\": [{\"type\": "
                + "\"tool_use\", \"name\": \"read\"}]}]}", "message-malformed", "messages.0.content.0.id");
        refused("{\"format\": \"anthropic\", \"messages\": [{\"role\": \"user\", \"content\": [{\"type\": "
                + "\"tool_result\", \"content\": \"x\"}]}]}", "message-malformed", "messages.0.content.0.tool_use_id");
        refused("{\"format\": \"anthropic\", \"system\": 5, \"messages\": []}", "message-malformed", "system");
    }

    static void refused(String body, String rule, String field) {
        json().body(body).post("/v1/compact").then().statusCode(422).contentType("application/problem+json")
                .body("rule", equalTo(rule)).body("field", equalTo(field));
    }
}
