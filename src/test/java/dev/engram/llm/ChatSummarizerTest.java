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
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.engram.contexts.ConversationCompaction;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.StrategySettings;
import dev.engram.contexts.Summarizer;
import dev.engram.kernel.SummaryFailed;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.ops.EngramConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The summarizer against a local server speaking OpenAI's chat-completions API and Anthropic's messages API
 * (WireMock): what it sends, what it answers, and how an HTTP error, a timeout and an empty answer fail; and the
 * SPEC's token cap on the text a block sends.
 */
class ChatSummarizerTest {

    static final ObjectMapper JSON = new ObjectMapper();
    /** A fake provider on a port of its own, its stubs and requests reset before each test. */
    @RegisterExtension
    static WireMockExtension server = WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

    static EngramConfig.Llm settings(String provider, String baseUrl, Duration timeout) {
        return FakeChatApis.settings(provider, baseUrl, "sk-test-456", timeout, 500);
    }

    static Summarizer openAi() {
        return Summarizers.of(settings("openai", server.baseUrl() + "/v1", Duration.ofSeconds(5)), "test-model");
    }

    static void openAiAnswers(int status, String content) {
        FakeChatApis.openAiAnswers(server, status, content, 0);
    }

    @Test
    void anOpenAiModelGetsThePromptAndTheTextAndItsAnswerIsTheSummary() throws Exception {
        openAiAnswers(200, "  The user asked for the plan; the agent read a.txt.\n");
        assertEquals("The user asked for the plan; the agent read a.txt.", openAi().summarize("user: the plan?\n"));
        server.verify(postRequestedFor(urlEqualTo("/v1/chat/completions"))
                .withHeader("Authorization", equalTo("Bearer sk-test-456"))
                .withRequestBody(matchingJsonPath("$.model", equalTo("test-model")))
                .withRequestBody(matchingJsonPath("$.messages[0].role", equalTo("system")))
                .withRequestBody(matchingJsonPath("$.messages[0].content", containing("You summarize part of")))
                .withRequestBody(matchingJsonPath("$.messages[1].content", equalTo("user: the plan?\n"))));
    }

    @Test
    void anAnthropicModelIsCalledOnItsMessagesApiWithItsKeyHeader() throws Exception {
        FakeChatApis.anthropicAnswers(server, 200, "Two exchanges about Apollo.");
        Summarizer anthropic = Summarizers.of(settings("anthropic", server.baseUrl() + "/v1/", Duration.ofSeconds(5)),
                "test-model");
        assertEquals("Two exchanges about Apollo.", anthropic.summarize("user: Apollo?\nassistant: Friday.\n"));
        server.verify(postRequestedFor(urlEqualTo("/v1/messages")).withHeader("x-api-key", equalTo("sk-test-456"))
                .withRequestBody(matchingJsonPath("$.max_tokens", equalTo("500")))
                .withRequestBody(containing("You summarize part of"))
                .withRequestBody(containing("assistant: Friday.")));
    }

    @Test
    void anHttpErrorFailsWithTheModelsWordsAndNotItsKey() throws Exception {
        openAiAnswers(500, "{\"error\": {\"message\": \"The server had an error\"}}");
        RuntimeException e = assertThrows(RuntimeException.class, () -> openAi().summarize("user: hi\n"));
        assertTrue(e.getMessage().startsWith("the summarizer (openai model test-model) failed: "), e.getMessage());
        assertTrue(e.getMessage().contains("The server had an error"), e.getMessage());
        assertFalse(e.getMessage().contains("sk-test-456"));
    }

    @Test
    void aModelSlowerThanTheTimeoutFails() throws Exception {
        server.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withBody("{}").withFixedDelay(4000)));
        Summarizer slow = Summarizers.of(settings("openai", server.baseUrl() + "/v1", Duration.ofSeconds(1)),
                "test-model");
        RuntimeException e = assertThrows(RuntimeException.class, () -> slow.summarize("user: hi\n"));
        assertTrue(e.getMessage().contains("failed"), e.getMessage());
    }

    @Test
    void anEmptyAnswerIsAFailureNotAnEmptySummary() throws Exception {
        openAiAnswers(200, "   ");
        RuntimeException e = assertThrows(RuntimeException.class, () -> openAi().summarize("user: hi\n"));
        assertEquals("the summarizer (openai model test-model) answered no text", e.getMessage());
    }

    @Test
    void conversationCompactionSendsEachBlockAndRefusesWhenTheModelFails() throws Exception {
        List<Message> messages = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            messages.add(i % 2 == 1 ? Message.user("question " + i) : Message.assistant("answer " + i));
        }
        openAiAnswers(200, "Summary of a block.");
        List<Message> got = ConversationCompaction.compact(messages, StrategySettings.named("summarization"),
                openAi(), TokenCounter.simple(), 0);
        assertEquals(List.of(Message.system("Summary of a block."), messages.get(3), messages.get(4),
                messages.get(5), messages.get(6), messages.get(7)), got);
        server.verify(1, postRequestedFor(urlEqualTo("/v1/chat/completions"))
                .withRequestBody(matchingJsonPath("$.messages[1].content",
                        equalTo("user: question 1\nassistant: answer 2\nuser: question 3\n"))));

        openAiAnswers(503, "{\"error\": {\"message\": \"overloaded\"}}");
        SummaryFailed failed = assertThrows(SummaryFailed.class, () -> ConversationCompaction.compact(messages,
                StrategySettings.named("summarization"), openAi(), TokenCounter.simple(), 0));
        assertTrue(failed.getMessage().startsWith("Summarizing conversation messages 1-3 failed: the summarizer "
                + "(openai model test-model) failed: "), failed.getMessage());
        assertInstanceOf(RuntimeException.class, failed.getCause());
    }

    @Test
    void aBlockOverTheTokenCapIsCutToThreeBytesATokenWithTheNote() throws Exception {
        openAiAnswers(200, "Short.");
        String big = "x".repeat(400);
        List<Message> messages = List.of(Message.user(big), Message.assistant("ok"), Message.user("last"));
        StrategySettings capped = new StrategySettings("summarization", 0, 1, 0, 1000, 0, 0, 0, 50);
        ConversationCompaction.compact(messages, capped, openAi(), TokenCounter.simple(), 0);
        List<LoggedRequest> sent = server.findAll(postRequestedFor(urlEqualTo("/v1/chat/completions")));
        assertEquals(1, sent.size());
        String text = JSON.readTree(sent.get(0).getBodyAsString()).at("/messages/1/content").asText();
        String expected = "user: " + "x".repeat(143) + "…" + "\n[... truncated for summarization ...]";
        assertEquals(expected, text);
    }
}
