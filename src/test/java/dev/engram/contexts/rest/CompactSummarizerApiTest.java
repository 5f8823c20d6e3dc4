package dev.engram.contexts.rest;

import dev.engram.rest.Api;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.engram.rest.Api.json;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.engram.llm.FakeChatApis.HeldAnswers;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /v1/compact} with the summarizer configured against a local fake of an OpenAI-compatible API
 * (WireMock): summaries take the summarized messages' place (in an anthropic conversation, before any turn, in its
 * system); blocks are asked at once and placed in order; a model that fails or times out is a 502; a block over the
 * token cap is sent cut, with the SPEC's note.
 */
@QuarkusTest
@TestProfile(CompactSummarizerApiTest.WithSummarizer.class)
class CompactSummarizerApiTest {

    static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A fake chat API (OpenAI's chat completions, or Anthropic's messages with the argument {@code provider}
     * {@code anthropic}), started before Engram so that its URL is in Engram's settings; its answers can be held
     * ({@link dev.engram.llm.FakeChatApis.HeldAnswers}).
     */
    public static class FakeModel implements QuarkusTestResourceLifecycleManager {

        static WireMockServer server;
        private String provider = "openai";

        @Override
        public void init(Map<String, String> args) {
            provider = args.getOrDefault("provider", "openai");
        }

        @Override
        public Map<String, String> start() {
            server = new WireMockServer(wireMockConfig().dynamicPort()
                    .extensions(new dev.engram.llm.FakeChatApis.HeldAnswers()));
            server.start();
            String baseUrl = server.baseUrl() + (provider.equals("anthropic") ? "/v1/" : "/v1");
            return Map.of("engram.context.summarizer.provider", provider, "engram.context.summarizer.model",
                    "gpt-test", "engram.context.summarizer.base-url", baseUrl,
                    "engram.context.summarizer.api-key", "sk-fake", "engram.context.summarizer.timeout", "4s");
        }

        @Override
        public void stop() {
            server.stop();
        }
    }

    /** Engram with its summarizer on the fake model (OpenAI's API). */
    public static class WithSummarizer implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(FakeModel.class));
        }
    }

    /** Engram with its summarizer on the fake model speaking Anthropic's API. */
    public static class WithAnthropicSummarizer implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(FakeModel.class, Map.of("provider", "anthropic")));
        }
    }

    static final String CONVERSATION = "[{\"role\": \"user\", \"content\": \"Where is Apollo?\"}, "
            + "{\"role\": \"assistant\", \"content\": \"On track.\"}, {\"role\": \"user\", \"content\": \"When?\"}, "
            + "{\"role\": \"assistant\", \"content\": \"Friday.\"}, {\"role\": \"user\", \"content\": \"Thanks.\"}]";

    @BeforeEach
    void reset() {
        FakeModel.server.resetAll();
    }

    static void modelAnswers(int status, String content, int delayMillis) {
        dev.engram.llm.FakeChatApis.openAiAnswers(FakeModel.server, status, content, delayMillis);
    }

    static String sentText() throws Exception {
        List<com.github.tomakehurst.wiremock.verification.LoggedRequest> sent = FakeModel.server
                .findAll(postRequestedFor(urlEqualTo("/v1/chat/completions")));
        assertEquals(1, sent.size());
        return JSON.readTree(sent.get(0).getBodyAsString()).at("/messages/1/content").asText();
    }

    @Test
    void theOlderMessagesBecomeTheModelsSummary() throws Exception {
        modelAnswers(200, "Apollo is on track for Friday.", 0);
        JsonNode sent = JSON.readTree(CONVERSATION);
        JsonNode reply = JSON.readTree(json().body("{\"format\": \"openai-chat\", \"messages\": " + CONVERSATION
                + ", \"strategy\": {\"name\": \"summarization\", \"keep_last\": 1}}").post("/v1/compact").then()
                .statusCode(200).extract().asString());
        assertEquals(JSON.readTree("[{\"role\": \"system\", \"content\": \"Apollo is on track for Friday.\"}]")
                .get(0), reply.at("/messages/0"));
        assertEquals(sent.get(4), reply.at("/messages/1"));
        assertEquals(2, reply.get("messages").size());
        assertEquals("user: Where is Apollo?\nassistant: On track.\nuser: When?\nassistant: Friday.\n", sentText());
    }

    @Test
    void anAnthropicSummaryBeforeAnAssistantTurnIsAUserTurnAndTheSystemStaysAsSent() throws Exception {
        modelAnswers(200, "Asked about Apollo.", 0);
        JsonNode reply = JSON.readTree(json().body("{\"format\": \"anthropic\", \"system\": \"Be brief.\", "
                + "\"messages\": " + CONVERSATION + ", \"strategy\": {\"name\": \"summarization\", \"keep_last\": 2}}")
                .post("/v1/compact").then().statusCode(200).extract().asString());
        assertEquals("Be brief.", reply.get("system").asText());
        assertEquals(JSON.readTree("{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": "
                + "\"Asked about Apollo.\"}]}"), reply.at("/messages/0"));
        assertEquals(JSON.readTree(CONVERSATION).get(3), reply.at("/messages/1"));
        assertEquals(3, reply.get("messages").size());
        assertEquals(true, reply.get("summarized").asBoolean());
        assertEquals("user: Where is Apollo?\nassistant: On track.\nuser: When?\n", sentText());
    }

    @Test
    void theInstructionsAreKeptVerbatimAndNeverSentToTheModel() throws Exception {
        modelAnswers(200, "They talked about Apollo.", 0);
        String messages = "[{\"role\": \"system\", \"content\": \"Never deploy on Friday.\"}, {\"role\": "
                + "\"developer\", \"content\": \"Answer in English.\"}, " + CONVERSATION.substring(1);
        for (String strategy : List.of("{\"name\": \"summarization\", \"keep_last\": 1}",
                "{\"name\": \"hierarchical\", \"distant\": 0.5, \"middle\": 0.4, \"recent\": 0.1}")) {
            FakeModel.server.resetRequests();
            JsonNode reply = JSON.readTree(json().body("{\"format\": \"openai-chat\", \"messages\": " + messages
                    + ", \"strategy\": " + strategy + "}").post("/v1/compact").then().statusCode(200).extract()
                    .asString());
            assertEquals(JSON.readTree(messages).get(0), reply.at("/messages/0"), strategy);
            assertEquals(JSON.readTree(messages).get(1), reply.at("/messages/1"), strategy);
            assertEquals(true, reply.get("summarized").asBoolean());
            for (var request : FakeModel.server.findAll(postRequestedFor(urlEqualTo("/v1/chat/completions")))) {
                String text = JSON.readTree(request.getBodyAsString()).at("/messages/1/content").asText();
                assertEquals(false, text.contains("Friday.\n") && text.contains("system:"), text);
                assertEquals(false, text.contains("Never deploy") || text.contains("Answer in English"), text);
            }
        }
    }

    @Test
    void aConversationCanChooseTheSummarizerAsAStoredContextDoes() throws Exception {
        modelAnswers(200, "Small summary.", 0);
        JsonNode reply = JSON.readTree(json().body("{\"format\": \"openai-chat\", \"messages\": " + CONVERSATION
                + ", \"strategy\": {\"name\": \"summarization\", \"keep_last\": 1, \"summarizer\": {\"model\": "
                + "\"gpt-small\"}}}").post("/v1/compact").then().statusCode(200).extract().asString());
        assertEquals("Small summary.", reply.at("/messages/0/content").asText());
        FakeModel.server.verify(1, postRequestedFor(urlEqualTo("/v1/chat/completions"))
                .withRequestBody(matchingJsonPath("$.model", com.github.tomakehurst.wiremock.client.WireMock
                        .equalTo("gpt-small"))));
        JsonNode none = JSON.readTree(json().body("{\"format\": \"openai-chat\", \"messages\": " + CONVERSATION
                + ", \"strategy\": {\"name\": \"summarization\", \"keep_last\": 1, \"summarizer\": \"none\"}}")
                .post("/v1/compact").then().statusCode(200).extract().asString());
        assertEquals("[... 4 earlier conversation messages omitted: no summarizer ...]",
                none.at("/messages/0/content").asText());
        assertEquals(false, none.get("summarized").asBoolean());
        FakeModel.server.verify(1, postRequestedFor(urlEqualTo("/v1/chat/completions")));
    }

    @Test
    void aBlockOverTheTokenCapIsSentCutWithTheNote() throws Exception {
        modelAnswers(200, "Long.", 0);
        String big = "y".repeat(200);
        json().body("{\"format\": \"openai-chat\", \"messages\": [{\"role\": \"user\", \"content\": \"" + big + "\"},"
                + " {\"role\": \"user\", \"content\": \"last\"}], \"strategy\": {\"name\": \"summarization\", "
                + "\"keep_last\": 1, \"max_summarize_tokens\": 20}}").post("/v1/compact").then().statusCode(200);
        assertEquals("user: " + "y".repeat(53) + "…\n[... truncated for summarization ...]", sentText());
    }

    @Test
    void theBlocksAreAskedAtOnceAndAnsweredInTheirOrder() throws Exception {
        for (String question : List.of("Where is Apollo?", "On track.", "When?")) {
            FakeModel.server.stubFor(post(urlEqualTo("/v1/chat/completions"))
                    .withRequestBody(matchingJsonPath("$.messages[1].content", containing(question)))
                    .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json")
                            .withBody(dev.engram.llm.FakeChatApis.openAiCompletion("About " + question))));
        }
        HeldAnswers.hold();
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            Future<String> reply = caller.submit(() -> json().body("{\"format\": \"openai-chat\", \"messages\": "
                    + CONVERSATION + ", \"strategy\": {\"name\": \"summarization\", \"block_size\": 1, "
                    + "\"keep_last\": 2}}").post("/v1/compact").then().statusCode(200).extract().asString());
            HeldAnswers.awaitHeld(3);
            HeldAnswers.release();
            JsonNode messages = JSON.readTree(reply.get()).get("messages");
            assertEquals(List.of("About Where is Apollo?", "About On track.", "About When?", "Friday.", "Thanks."),
                    messages.findValuesAsText("content"));
        } finally {
            HeldAnswers.release();
            caller.shutdownNow();
        }
    }

    @Test
    void aFailingModelIsA502WithRetryAfter() throws Exception {
        modelAnswers(500, "{\"error\": {\"message\": \"The server had an error\"}}", 0);
        json().body("{\"format\": \"openai-chat\", \"messages\": " + CONVERSATION + ", \"strategy\": {\"name\": "
                + "\"summarization\", \"keep_last\": 1}}").post("/v1/compact").then().statusCode(502)
                .contentType("application/problem+json").header("Retry-After", "5")
                .body("type", containsString("summarizer-failed"))
                .body("detail", containsString("Summarizing conversation messages 1-4 failed"))
                .body("detail", containsString("The server had an error"));
    }

    @Test
    void aModelSlowerThanTheTimeoutIsA502() throws Exception {
        modelAnswers(200, "Too late.", 5000);
        json().body("{\"format\": \"openai-chat\", \"messages\": " + CONVERSATION + ", \"strategy\": {\"name\": "
                + "\"hierarchical\"}}").post("/v1/compact").then().statusCode(502)
                .body("type", containsString("summarizer-failed"));
    }
}
