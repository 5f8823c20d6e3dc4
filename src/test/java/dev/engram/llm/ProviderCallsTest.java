package dev.engram.llm;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.engram.contexts.Summarizer;
import dev.engram.contexts.messages.UntrustedContent;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How Engram's chat models call a provider (issue 22, item 8 and 7): a {@code Retry-After} is waited for, up to a
 * bound; the timeout covers every attempt; base URLs are normalised; reasoning models are sent what they take; a
 * garbled answer is said without Java's names; the summarizer's guard names the fence the summaries carry.
 */
class ProviderCallsTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static WireMockExtension server = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

    static Summarizer summarizer(String provider, String baseUrl, Duration timeout, String model,
            Optional<Boolean> reasoning) {
        return Summarizers.of(FakeChatApis.settings(provider, baseUrl, "sk-test", timeout, 500, reasoning), model);
    }

    static Summarizer openAi(Duration timeout) {
        return summarizer("openai", server.baseUrl() + "/v1", timeout, "gpt-4o-mini", Optional.empty());
    }

    private static void rateLimitedThenAnswered(String retryAfter) {
        server.stubFor(post(urlEqualTo("/v1/chat/completions")).inScenario("limited")
                .whenScenarioStateIs(Scenario.STARTED).willReturn(aResponse().withStatus(429)
                        .withHeader("Retry-After", retryAfter).withHeader("Content-Type", "application/json")
                        .withBody("{\"error\": {\"message\": \"Rate limit reached\"}}"))
                .willSetStateTo("answered"));
        server.stubFor(post(urlEqualTo("/v1/chat/completions")).inScenario("limited").whenScenarioStateIs("answered")
                .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json")
                        .withBody(FakeChatApis.openAiCompletion("A summary."))));
    }

    @Test
    void aRateLimitIsRetriedNoSoonerThanItsRetryAfter() {
        rateLimitedThenAnswered("2");
        assertEquals("A summary.", openAi(Duration.ofSeconds(20)).summarize("user: hi\n"));
        List<LoggedRequest> requests = server.findAll(postRequestedFor(urlEqualTo("/v1/chat/completions")));
        assertEquals(2, requests.size());
        long waited = requests.get(1).getLoggedDate().getTime() - requests.get(0).getLoggedDate().getTime();
        assertTrue(waited >= 2000, "retried after " + waited + " ms");
    }

    @Test
    void aRetryAfterBeyondTheBoundFailsAtOnceWithTheProvidersWords() {
        rateLimitedThenAnswered("3600");
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> openAi(Duration.ofSeconds(20)).summarize("user: hi\n"));
        assertEquals(1, server.findAll(postRequestedFor(urlEqualTo("/v1/chat/completions"))).size());
        assertTrue(e.getMessage().endsWith("failed: HTTP 429: Rate limit reached"), e.getMessage());
    }

    @Test
    void aHungProviderIsAskedOnceWithinTheTimeout() {
        server.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withBody(FakeChatApis.openAiCompletion("late"))
                .withFixedDelay(4000)));
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> openAi(Duration.ofMillis(1500)).summarize("user: hi\n"));
        assertTrue(e.getMessage().contains("timed out"), e.getMessage());
        assertEquals(1, server.findAll(postRequestedFor(urlEqualTo("/v1/chat/completions"))).size());
    }

    @Test
    void anAnthropicBaseUrlWorksWithOrWithoutV1AndTrailingSlashes() {
        FakeChatApis.anthropicAnswers(server, 200, "Summary.");
        for (String base : List.of(server.baseUrl(), server.baseUrl() + "/", server.baseUrl() + "/v1",
                server.baseUrl() + "/v1//")) {
            assertEquals("Summary.", summarizer("anthropic", base, Duration.ofSeconds(5), "claude-test",
                    Optional.empty()).summarize("user: hi\n"), base);
        }
        assertEquals(4, server.findAll(postRequestedFor(urlEqualTo("/v1/messages"))).size());
        FakeChatApis.openAiAnswers(server, 200, "Summary.", 0);
        assertEquals("Summary.", summarizer("openai", server.baseUrl() + "/", Duration.ofSeconds(5), "gpt-4o-mini",
                Optional.empty()).summarize("user: hi\n"));
        assertEquals(1, server.findAll(postRequestedFor(urlEqualTo("/v1/chat/completions"))).size());
    }

    private static JsonNode lastBody() throws Exception {
        List<LoggedRequest> requests = server.findAll(postRequestedFor(urlEqualTo("/v1/chat/completions")));
        return JSON.readTree(requests.get(requests.size() - 1).getBodyAsString());
    }

    @Test
    void reasoningModelsAreSentNeitherTemperatureNorMaxTokens() throws Exception {
        FakeChatApis.openAiAnswers(server, 200, "Summary.", 0);
        for (String model : List.of("o1", "o3-mini", "o4-mini-2025-04-16", "gpt-5", "gpt-5-mini", "openai/o3")) {
            summarizer("openai", server.baseUrl() + "/v1", Duration.ofSeconds(5), model, Optional.empty())
                    .summarize("user: hi\n");
            JsonNode body = lastBody();
            assertFalse(body.has("temperature"), model + ": " + body);
            assertFalse(body.has("max_tokens"), model + ": " + body);
            assertEquals(500, body.path("max_completion_tokens").asInt(), model + ": " + body);
        }
        openAi(Duration.ofSeconds(5)).summarize("user: hi\n");
        assertEquals(0.0, lastBody().path("temperature").asDouble(-1));
        assertEquals(500, lastBody().path("max_tokens").asInt());
        summarizer("openai", server.baseUrl() + "/v1", Duration.ofSeconds(5), "my-thinker", Optional.of(true))
                .summarize("user: hi\n");
        assertFalse(lastBody().has("temperature"));
        summarizer("openai", server.baseUrl() + "/v1", Duration.ofSeconds(5), "o3-mini", Optional.of(false))
                .summarize("user: hi\n");
        assertEquals(500, lastBody().path("max_tokens").asInt());
    }

    @Test
    void aGarbledAnswerIsSaidWithoutJavasNames() {
        for (String body : List.of("this is not json", "{\"choices\": \"none\"}", "[1, 2",
                "{\"choices\": [{\"message\": {\"content\": 5, \"tool_calls\": \"x\"}}]}")) {
            server.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse().withStatus(200)
                    .withHeader("Content-Type", "application/json").withBody(body)));
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> openAi(Duration.ofSeconds(5)).summarize("user: hi\n"));
            String said = e.getMessage();
            assertTrue(said.startsWith("the summarizer (openai model gpt-4o-mini) "), said);
            for (String internal : List.of("com.fasterxml", "dev.langchain4j", "Exception", "java.", "jackson")) {
                assertFalse(said.contains(internal), body + " -> " + said);
            }
            assertTrue(said.length() < 400, said);
        }
    }

    @Test
    void theSummarizersGuardNamesTheFenceItsTextsCarry() {
        String fence = UntrustedContent.wrap("x", "web");
        String opening = fence.substring(0, fence.indexOf(' '));
        assertTrue(ChatSummarizer.PROMPT.contains(opening + " source="), ChatSummarizer.PROMPT);
        assertFalse(ChatSummarizer.PROMPT.contains("untrusted_content"));
    }
}
