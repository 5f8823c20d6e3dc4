package dev.engram.llm;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.engram.kernel.ReflectionFailed;
import dev.engram.ops.EngramConfig;
import dev.engram.memories.Bank;
import dev.engram.memories.Memory;
import dev.engram.memories.Observation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The llm reflector against a local server that speaks each provider's HTTP API (WireMock): what it sends (the
 * prompt, the facts, the key as the provider wants it) and how it reads answers, good, fenced, malformed and failed.
 */
class ChatReflectorTest {

    static final ObjectMapper JSON = new ObjectMapper();
    /** A fake provider on a port of its own, its stubs and requests reset before each test. */
    @RegisterExtension
    static WireMockExtension server = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

    static final Bank ALICE = new Bank("user", "alice");
    static final List<Memory> FACTS = List.of(fact("f1", "Apollo ships on Friday."), fact("f2", "Apollo QA is done."));
    static final String ANSWER = "{\"observations\": [{\"content\": \"Apollo is ready.\", \"confidence\": 0.8, "
            + "\"evidence_ids\": [\"f1\", \"f2\"], \"conflicting\": false, \"update_observation_id\": \"\"}]}";

    static Memory fact(String id, String content) {
        return new Memory(id, ALICE, "fact", content, 0.5, List.of("apollo"), List.of(), "user_input", 0, List.of(),
                null, null, "", false, false, null, "", 0, null, Instant.parse("2026-06-17T09:30:00Z"),
                Instant.parse("2026-06-17T09:30:00Z"), List.of());
    }

    static ChatReflector reflector(String provider, String baseUrl) {
        EngramConfig.Llm llm = FakeChatApis.settings(provider, baseUrl, "sk-test-123", Duration.ofSeconds(5),
                1000);
        return new ChatReflector(Reflectors.chatModel(llm, "test-model"), provider + " test-model");
    }

    static String openAi(String content) {
        return FakeChatApis.openAiCompletion(content);
    }

    static void openAiAnswers(String content) throws Exception {
        server.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withBody(openAi(content))));
    }

    @Test
    void anOpenAiCompatibleModelGetsThePromptAndTheFactsAndItsAnswerIsRead() throws Exception {
        openAiAnswers(ANSWER);
        List<Observation> got = reflector("openai", server.baseUrl() + "/v1").consolidate(FACTS, List.of());
        assertEquals(List.of(new Observation("Apollo is ready.", 0.8, List.of("f1", "f2"), false, "")), got);
        server.verify(postRequestedFor(urlEqualTo("/v1/chat/completions"))
                .withHeader("Authorization", equalTo("Bearer sk-test-123"))
                .withRequestBody(matchingJsonPath("$.model", equalTo("test-model")))
                .withRequestBody(matchingJsonPath("$.messages[0].role", equalTo("system")))
                .withRequestBody(matchingJsonPath("$.messages[0].content",
                        containing("You consolidate the memory of an AI agent")))
                .withRequestBody(matchingJsonPath("$.messages[1].content", containing("\"id\":\"f2\"")))
                .withRequestBody(matchingJsonPath("$.messages[1].content",
                        containing("\"content\":\"Apollo ships on Friday.\""))));
    }

    @Test
    void anAnthropicModelIsCalledOnItsMessagesApiWithItsKeyHeader() throws Exception {
        String body = JSON.writeValueAsString(JSON.createObjectNode().put("id", "msg_1").put("type", "message")
                .put("role", "assistant").put("model", "test-model").put("stop_reason", "end_turn")
                .<com.fasterxml.jackson.databind.node.ObjectNode>set("content", JSON.createArrayNode().add(
                        JSON.createObjectNode().put("type", "text").put("text", ANSWER)))
                .set("usage", JSON.createObjectNode().put("input_tokens", 10).put("output_tokens", 20)));
        server.stubFor(post(urlEqualTo("/v1/messages")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withBody(body)));
        List<Observation> got = reflector("anthropic", server.baseUrl() + "/v1/").consolidate(FACTS, List.of());
        assertEquals("Apollo is ready.", got.get(0).content());
        server.verify(postRequestedFor(urlEqualTo("/v1/messages")).withHeader("x-api-key", equalTo("sk-test-123"))
                .withRequestBody(containing("You consolidate the memory of an AI agent"))
                .withRequestBody(containing("Apollo QA is done.")));
    }

    @Test
    void anOllamaModelIsCalledOnItsNativeChatApiAskingForJson() throws Exception {
        String body = JSON.writeValueAsString(JSON.createObjectNode().put("model", "test-model")
                .put("created_at", "2026-06-17T09:30:00Z").put("done", true).put("done_reason", "stop")
                .set("message", JSON.createObjectNode().put("role", "assistant").put("content", ANSWER)));
        server.stubFor(post(urlEqualTo("/api/chat")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withBody(body)));
        List<Observation> got = reflector("ollama", server.baseUrl()).consolidate(FACTS, List.of());
        assertEquals(List.of("f1", "f2"), got.get(0).evidence());
        server.verify(postRequestedFor(urlEqualTo("/api/chat")).withRequestBody(containing("\"format\""))
                .withRequestBody(containing("Apollo ships on Friday.")));
    }

    @Test
    void anAnswerInACodeFenceIsRead() throws Exception {
        openAiAnswers("```json\n" + ANSWER + "\n```");
        assertEquals(1, reflector("openai", server.baseUrl() + "/v1").consolidate(FACTS, List.of()).size());
    }

    @Test
    void anAnswerThatIsNotTheJsonFormIsMalformedAndSaysWhy() throws Exception {
        for (String[] bad : new String[][] {
                {"Sure! Here are some observations: Apollo is ready.", "is not JSON"},
                {"[1, 2]", "is not an object with an \"observations\" array"},
                {"{\"observations\": {}}", "is not an object with an \"observations\" array"},
                {"{\"observations\": [\"Apollo\"]}", "observation 1 that is not an object"},
                {"{\"observations\": [{\"content\": 3}]}", "content is not a string"},
                {"{\"observations\": [{\"content\": \"x\", \"confidence\": \"high\"}]}", "confidence is not a number"},
                {"{\"observations\": [{\"content\": \"x\", \"evidence_ids\": \"f1,f2\"}]}", "evidence_ids is not an"},
                {"{\"observations\": [{\"content\": \"x\", \"evidence_ids\": [1, 2]}]}", "not a string"},
                {"{\"observations\": [{\"content\": \"x\", \"conflicting\": \"no\"}]}", "conflicting is not true"}}) {
            openAiAnswers(bad[0]);
            ReflectionFailed e = assertThrows(ReflectionFailed.class,
                    () -> reflector("openai", server.baseUrl() + "/v1").consolidate(FACTS, List.of()), bad[0]);
            assertEquals(ReflectionFailed.Kind.MALFORMED, e.kind());
            assertTrue(e.getMessage().contains(bad[1]), e.getMessage());
        }
    }

    @Test
    void aProviderErrorIsUnreachableWithItsTextButNeverTheKey() {
        server.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse().withStatus(401)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"error\": {\"message\": \"Incorrect API key provided\", \"type\": \"invalid_request_error\"}}")));
        ReflectionFailed e = assertThrows(ReflectionFailed.class,
                () -> reflector("openai", server.baseUrl() + "/v1").consolidate(FACTS, List.of()));
        assertEquals(ReflectionFailed.Kind.UNREACHABLE, e.kind());
        assertTrue(e.getMessage().contains("Incorrect API key provided"), e.getMessage());
        assertFalse(e.getMessage().contains("sk-test-123"), e.getMessage());
    }

    @Test
    void aModelThatDoesNotAnswerInTimeIsUnreachable() throws Exception {
        server.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withBody(openAi(ANSWER)).withFixedDelay(8000)));
        ReflectionFailed e = assertThrows(ReflectionFailed.class,
                () -> reflector("openai", server.baseUrl() + "/v1").consolidate(FACTS, List.of()));
        assertEquals(ReflectionFailed.Kind.UNREACHABLE, e.kind());
    }
}
