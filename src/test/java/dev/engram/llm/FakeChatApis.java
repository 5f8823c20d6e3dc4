package dev.engram.llm;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.junit.Stubbing;
import com.github.tomakehurst.wiremock.extension.ResponseTransformerV2;
import com.github.tomakehurst.wiremock.http.Response;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.engram.ops.EngramConfig;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * What the tests of Engram's chat-model clients share: their settings, fake OpenAI chat-completions and Anthropic
 * messages answers, and {@link HeldAnswers}, which keeps a fake model's answers back until a test lets them go.
 */
public final class FakeChatApis {

    private static final ObjectMapper JSON = new ObjectMapper();

    private FakeChatApis() {
    }

    /** Settings of a chat model {@code test-model} of {@code provider} at {@code baseUrl}. */
    public static EngramConfig.Llm settings(String provider, String baseUrl, String apiKey, Duration timeout,
            int maxTokens) {
        return settings(provider, baseUrl, apiKey, timeout, maxTokens, Optional.empty());
    }

    /** The same, with {@code reasoning} set (empty: by the model's name). */
    public static EngramConfig.Llm settings(String provider, String baseUrl, String apiKey, Duration timeout,
            int maxTokens, Optional<Boolean> reasoning) {
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

            public Duration retryAfterMax() {
                return Duration.ofSeconds(10);
            }

            public Optional<Boolean> reasoning() {
                return reasoning;
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
    public static void openAiAnswers(Stubbing server, int status, String content, int delayMillis) {
        server.stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse().withStatus(status)
                .withHeader("Content-Type", "application/json")
                .withBody(status == 200 ? openAiCompletion(content) : content).withFixedDelay(delayMillis)));
    }

    /** An Anthropic messages response whose one text block says {@code content}. */
    public static String anthropicMessage(String content) {
        ObjectNode answer = JSON.createObjectNode().put("id", "msg_1").put("type", "message").put("role", "assistant")
                .put("model", "test-model").put("stop_reason", "end_turn");
        answer.set("content", JSON.createArrayNode().add(JSON.createObjectNode().put("type", "text")
                .put("text", content)));
        answer.set("usage", JSON.createObjectNode().put("input_tokens", 10).put("output_tokens", 5));
        return answer.toString();
    }

    /** Makes {@code server}'s {@code /v1/messages} answer {@code content} (200), or it as the error body of status. */
    public static void anthropicAnswers(Stubbing server, int status, String content) {
        server.stubFor(post(urlEqualTo("/v1/messages")).willReturn(aResponse().withStatus(status)
                .withHeader("Content-Type", "application/json")
                .withBody(status == 200 ? anthropicMessage(content) : content)));
    }

    /**
     * A WireMock extension that, while {@link #hold} is in force, keeps every answer back until {@link #release}
     * (at most 30 seconds), counting the requests it holds: a test can then act while a model call is known to be
     * in flight, without guessing at delays.
     */
    public static final class HeldAnswers implements ResponseTransformerV2 {

        private static final Semaphore ARRIVED = new Semaphore(0);
        private static volatile CountDownLatch gate;

        /** Holds the answers from now on. */
        public static void hold() {
            ARRIVED.drainPermits();
            gate = new CountDownLatch(1);
        }

        /** Waits until {@code requests} more requests are held; fails after 30 seconds. */
        public static void awaitHeld(int requests) throws InterruptedException {
            if (!ARRIVED.tryAcquire(requests, 30, TimeUnit.SECONDS)) {
                throw new AssertionError("the fake model did not receive " + requests + " requests");
            }
        }

        /** Lets every held answer go, and stops holding. */
        public static void release() {
            CountDownLatch open = gate;
            gate = null;
            if (open != null) {
                open.countDown();
            }
        }

        @Override
        public Response transform(Response response, ServeEvent serveEvent) {
            CountDownLatch closed = gate;
            if (closed != null) {
                ARRIVED.release();
                try {
                    closed.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return response;
        }

        @Override
        public String getName() {
            return "held-answers";
        }
    }
}
