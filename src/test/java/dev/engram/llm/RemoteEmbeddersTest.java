package dev.engram.llm;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import dev.engram.llm.EmbeddingFailed.Reason;
import dev.engram.memories.rank.Embedder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The remote embedding models against a local fake of each provider's HTTP API (WireMock): OpenAI's
 * {@code POST /v1/embeddings} and Ollama's {@code POST /api/embed}. Their vectors come through at unit length, in
 * order, in batches; every wrong answer, an HTTP error, an unreachable server and a slow one throw and are counted
 * by reason, and none gives a vector.
 */
class RemoteEmbeddersTest {

    /** A provider's protocol: where it is asked, and how it answers vectors. */
    enum Api {
        OPENAI("openai", "/v1/embeddings", "/v1") {
            @Override
            String answer(String... vectors) {
                List<String> data = new ArrayList<>();
                for (int i = 0; i < vectors.length; i++) {
                    data.add("{\"object\":\"embedding\",\"index\":" + i + ",\"embedding\":" + vectors[i] + "}");
                }
                return "{\"object\":\"list\",\"data\":[" + String.join(",", data) + "],\"model\":\"test-embed\","
                        + "\"usage\":{\"prompt_tokens\":4,\"total_tokens\":4}}";
            }
        },
        OLLAMA("ollama", "/api/embed", "") {
            @Override
            String answer(String... vectors) {
                return "{\"model\":\"test-embed\",\"embeddings\":[" + String.join(",", vectors) + "],"
                        + "\"total_duration\":1000,\"load_duration\":10,\"prompt_eval_count\":4}";
            }
        };

        final String provider;
        final String path;
        final String basePath;

        Api(String provider, String path, String basePath) {
            this.provider = provider;
            this.path = path;
            this.basePath = basePath;
        }

        /** The provider's answer carrying {@code vectors} (JSON arrays), in order. */
        abstract String answer(String... vectors);
    }

    static WireMockServer server;

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final List<LogRecord> warnings = new CopyOnWriteArrayList<>();
    final Handler warningsHandler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeAll
    static void startServer() {
        server = new WireMockServer(wireMockConfig().dynamicPort());
        server.start();
    }

    @AfterAll
    static void stopServer() {
        server.stop();
    }

    @BeforeEach
    void reset() {
        server.resetAll();
    }

    Embedder embedder(Api api, String... more) {
        return embedderAt(api, server.baseUrl() + api.basePath, more);
    }

    Embedder embedderAt(Api api, String baseUrl, String... more) {
        List<String> properties = new ArrayList<>(List.of("provider", api.provider, "model", "test-embed",
                "base-url", baseUrl, "api-key", "sk-fake", "timeout", "1s"));
        properties.addAll(List.of(more));
        return new Embedders(EmbeddingSettings.of(properties.toArray(String[]::new)), registry, false).embedder();
    }

    void answers(Api api, String body) {
        answers(api, body, 0);
    }

    void answers(Api api, String body, int delayMillis) {
        server.stubFor(stub(api).willReturn(aResponse().withHeader("Content-Type", "application/json")
                .withBody(body).withFixedDelay(delayMillis)));
    }

    static MappingBuilder stub(Api api) {
        return post(urlEqualTo(api.path));
    }

    double failures(Reason reason) {
        return registry.get("engram.embedding.failures").tag("reason", reason.tag()).counter().count();
    }

    double allFailures() {
        return registry.get("engram.embedding.failures").counters().stream().mapToDouble(c -> c.count()).sum();
    }

    long successes() {
        return registry.get("engram.embedding.seconds").timer().count();
    }

    /** The call fails for {@code reason}, counted once, and nothing else was counted. */
    void fails(Reason reason, Embedder embedder, List<String> texts) {
        EmbeddingFailed e = assertThrows(EmbeddingFailed.class, () -> embedder.embed(texts));
        assertEquals(reason, e.reason(), e.getMessage());
        assertEquals(1.0, failures(reason));
        assertEquals(1.0, allFailures());
        assertEquals(0, successes());
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void vectorsComeThroughAtUnitLengthInOrderAndTheirLengthIsLearned(Api api) {
        answers(api, api.answer("[3, 4, 0]", "[0, 0, 2]"));
        Embedder embedder = embedder(api);
        assertEquals("test-embed", embedder.model());
        assertEquals(0, embedder.dimensions());

        List<float[]> vectors = embedder.embed(List.of("the cat sat", "on the mat"));

        assertEquals(2, vectors.size());
        assertArrayEquals(new float[] {0.6f, 0.8f, 0f}, vectors.get(0), 1e-6f);
        assertArrayEquals(new float[] {0f, 0f, 1f}, vectors.get(1), 1e-6f);
        assertEquals(3, embedder.dimensions());
        assertEquals(1, successes());
        assertEquals(0.0, allFailures());
        server.verify(1, postRequestedFor(urlEqualTo(api.path))
                .withRequestBody(matchingJsonPath("$.model", equalTo("test-embed")))
                .withRequestBody(matchingJsonPath("$.input[0]", equalTo("the cat sat")))
                .withRequestBody(matchingJsonPath("$.input[1]", equalTo("on the mat"))));
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void theKeyIsSentAsABearerToken(Api api) {
        answers(api, api.answer("[1, 0]"));
        embedder(api).embed(List.of("x"));
        server.verify(postRequestedFor(urlEqualTo(api.path)).withHeader("Authorization", equalTo("Bearer sk-fake")));
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void textsAreSentInBatchesAndComeBackInOrder(Api api) {
        List<String> texts = List.of("a", "b", "c", "d", "e");
        for (int first = 0; first < texts.size(); first += 2) {
            List<String> batch = texts.subList(first, Math.min(texts.size(), first + 2));
            String[] vectors = new String[batch.size()];
            for (int i = 0; i < batch.size(); i++) {
                vectors[i] = oneHot(first + i, texts.size(), 2);
            }
            server.stubFor(stub(api).withRequestBody(matchingJsonPath("$.input[0]", equalTo(batch.get(0))))
                    .willReturn(aResponse().withHeader("Content-Type", "application/json")
                            .withBody(api.answer(vectors))));
        }
        Embedder embedder = embedder(api, "batch-size", "2");

        List<float[]> vectors = embedder.embed(texts);

        server.verify(3, postRequestedFor(urlEqualTo(api.path)));
        server.verify(1, postRequestedFor(urlEqualTo(api.path))
                .withRequestBody(matchingJsonPath("$.input[?(@ == 'e')]"))
                .withRequestBody(matchingJsonPath("$.input.size()", equalTo("1"))));
        assertEquals(texts.size(), vectors.size());
        for (int i = 0; i < texts.size(); i++) {
            float[] expected = new float[texts.size()];
            expected[i] = 1;
            assertArrayEquals(expected, vectors.get(i), 1e-6f, "text " + i);
        }
        assertEquals(3, successes());
    }

    /** A JSON vector of {@code length} zeros but {@code value} at {@code index}. */
    static String oneHot(int index, int length, int value) {
        List<String> v = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            v.add(i == index ? Integer.toString(value) : "0");
        }
        return "[" + String.join(", ", v) + "]";
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void configuredDimensionsAreAskedForAndHeld(Api api) {
        answers(api, api.answer("[1, 2, 2]"));
        Embedder embedder = embedder(api, "dimensions", "3");
        assertEquals(3, embedder.dimensions());

        assertArrayEquals(new float[] {1 / 3f, 2 / 3f, 2 / 3f}, embedder.embed(List.of("x")).get(0), 1e-6f);
        server.verify(postRequestedFor(urlEqualTo(api.path))
                .withRequestBody(matchingJsonPath("$.dimensions", equalTo("3"))));

        answers(api, api.answer("[1, 2, 2, 4]"));
        EmbeddingFailed e = assertThrows(EmbeddingFailed.class, () -> embedder.embed(List.of("x")));
        assertEquals(Reason.DIMENSIONS, e.reason());
        assertTrue(e.getMessage().contains("test-embed") && e.getMessage().contains("4 dimensions, not 3"),
                e.getMessage());
        assertEquals(1.0, failures(Reason.DIMENSIONS));
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void aLearnedLengthIsHeld(Api api) {
        answers(api, api.answer("[1, 0, 0]"));
        Embedder embedder = embedder(api);
        embedder.embed(List.of("x"));

        answers(api, api.answer("[1, 0, 0, 0]"));
        assertEquals(Reason.DIMENSIONS, assertThrows(EmbeddingFailed.class,
                () -> embedder.embed(List.of("y"))).reason());
        assertEquals(3, embedder.dimensions());
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void vectorsOfDifferentLengthsInOneAnswerAreRefused(Api api) {
        answers(api, api.answer("[1, 0, 0]", "[1, 0]"));
        Embedder embedder = embedder(api);
        fails(Reason.DIMENSIONS, embedder, List.of("x", "y"));
        assertEquals(0, embedder.dimensions());
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void aGarbageBodyFails(Api api) {
        answers(api, "<html>502 Bad Gateway</html>");
        fails(Reason.UNREADABLE, embedder(api), List.of("x"));
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void jsonWithoutVectorsFails(Api api) {
        answers(api, "{\"error\": null}");
        fails(Reason.UNREADABLE, embedder(api), List.of("x"));
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void tooFewVectorsFail(Api api) {
        answers(api, api.answer("[1, 0]"));
        fails(Reason.COUNT, embedder(api), List.of("x", "y"));
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void tooManyVectorsFail(Api api) {
        answers(api, api.answer("[1, 0]", "[0, 1]"));
        fails(Reason.COUNT, embedder(api), List.of("x"));
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void anInfinityFails(Api api) {
        answers(api, api.answer("[1, 0]", "[1e999, 0]"));
        fails(Reason.NOT_FINITE, embedder(api), List.of("x", "y"));
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void aNaNFails(Api api) {
        // JSON has no NaN: the provider's parser refuses the body (a NaN that reaches the guard: GuardedEmbedderTest)
        answers(api, api.answer("[NaN, 0]"));
        fails(Reason.UNREADABLE, embedder(api), List.of("x"));
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void aZeroVectorFails(Api api) {
        answers(api, api.answer("[1, 0]", "[0, 0]"));
        fails(Reason.ZERO, embedder(api), List.of("x", "y"));
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void anEmptyVectorFails(Api api) {
        answers(api, api.answer("[]"));
        fails(Reason.DIMENSIONS, embedder(api), List.of("x"));
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void anAnswerSlowerThanTheTimeoutFails(Api api) {
        answers(api, api.answer("[1, 0]"), 2500);
        Embedder embedder = embedder(api);
        long start = System.nanoTime();
        fails(Reason.TIMEOUT, embedder, List.of("x"));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < 2400, "took " + millis + " ms");
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void anHttpErrorFailsWithoutARetry(Api api) {
        server.stubFor(stub(api).willReturn(aResponse().withStatus(500).withBody("{\"error\":\"overloaded\"}")));
        fails(Reason.REFUSED, embedder(api), List.of("x"));
        server.verify(1, postRequestedFor(urlEqualTo(api.path)));
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void anUnreachableServerFails(Api api) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        fails(Reason.UNREACHABLE, embedderAt(api, "http://127.0.0.1:" + port + api.basePath), List.of("x"));
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void failuresAreLoggedAtMostOnceAMinuteNamingTheModel(Api api) {
        Logger logger = Logger.getLogger(GuardedEmbedder.class.getName());
        logger.addHandler(warningsHandler);
        try {
            answers(api, api.answer("[1, 0]"));
            Embedder embedder = embedder(api);
            for (int i = 0; i < 3; i++) {
                assertThrows(EmbeddingFailed.class, () -> embedder.embed(List.of("x", "y")));
            }
            assertEquals(3.0, failures(Reason.COUNT));
            assertEquals(1, warnings.size());
            String message = warnings.get(0).getMessage();
            assertTrue(message.contains(api.provider) && message.contains("test-embed")
                    && message.contains("1 vectors for 2 texts"), message);
        } finally {
            logger.removeHandler(warningsHandler);
        }
    }
}
