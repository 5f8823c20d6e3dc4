package dev.engram.llm;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.engram.ops.EngramConfig;
import java.time.Duration;
import java.util.Optional;

/** What the tests of Engram's chat-model clients share: their settings, and a fake OpenAI chat-completions answer. */
public final class FakeChatApis {

    private static final ObjectMapper JSON = new ObjectMapper();

    private FakeChatApis() {
    }

    /** Settings of a chat model {@code test-model} of {@code provider} at {@code baseUrl}. */
    public static EngramConfig.Llm settings(String provider, String baseUrl, String apiKey, Duration timeout,
            int maxTokens) {
        return new EngramConfig.Llm() {
            public String provider() {
                return provider;
            }

            public Optional<String> model() {
                return Optional.of("test-model");
            }

            public Optional<String> baseUrl() {
                return Optional.of(baseUrl);
            }

            public Optional<String> apiKey() {
                return Optional.of(apiKey);
            }

            public Duration timeout() {
                return timeout;
            }

            public int maxTokens() {
                return maxTokens;
            }
        };
    }

    /** A chat-completions response whose one choice says {@code content}. */
    public static String openAiCompletion(String content) {
        return JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion").put("created", 1)
                .put("model", "test-model").set("choices", JSON.createArrayNode().add(JSON.createObjectNode()
                        .put("index", 0).put("finish_reason", "stop").set("message", JSON.createObjectNode()
                                .put("role", "assistant").put("content", content)))).toString();
    }

    /**
     * Makes {@code server}'s {@code /v1/chat/completions} answer {@code content} (200), or {@code content} as the
     * error body of {@code status}, after {@code delayMillis}.
     */
    public static void openAiAnswers(WireMockServer server, int status, String content, int delayMillis) {
        server.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse().withStatus(status)
                .withHeader("Content-Type", "application/json")
                .withBody(status == 200 ? openAiCompletion(content) : content).withFixedDelay(delayMillis)));
    }
}
