package dev.engram.llm;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The HTTP client Engram's chat models use (LangChain4j's own retries off): one deadline, the configured timeout,
 * covers every attempt; a provider's {@code 429} or {@code 5xx} is tried once more, after its {@code Retry-After}
 * (seconds or an HTTP date; 1 second when it sends none) when that is at most {@code retryAfterMax} and still inside
 * the deadline; otherwise the answer is the failure. A connection that fails is tried once more at once.
 */
final class ProviderHttp implements HttpClient, HttpClientBuilder {

    /** How many attempts a call makes at most. */
    static final int ATTEMPTS = 2;
    private static final Duration NO_RETRY_AFTER = Duration.ofSeconds(1);
    /** Headers the JDK's client sets itself and refuses from a caller. */
    private static final java.util.Set<String> RESTRICTED = java.util.Set.of("connection", "content-length",
            "expect", "host", "upgrade");

    private final Duration timeout;
    private final Duration retryAfterMax;
    private final LongSupplier nanos;
    private final Sleeper sleeper;
    private final java.net.http.HttpClient client;

    /** Waits; a test can see what it was asked to wait. */
    interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    ProviderHttp(Duration timeout, Duration retryAfterMax) {
        this(timeout, retryAfterMax, System::nanoTime, d -> Thread.sleep(d.toMillis()));
    }

    ProviderHttp(Duration timeout, Duration retryAfterMax, LongSupplier nanos, Sleeper sleeper) {
        this.timeout = timeout;
        this.retryAfterMax = retryAfterMax;
        this.nanos = nanos;
        this.sleeper = sleeper;
        this.client = java.net.http.HttpClient.newBuilder().connectTimeout(timeout)
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build();
    }

    @Override
    public Duration connectTimeout() {
        return timeout;
    }

    @Override
    public HttpClientBuilder connectTimeout(Duration ignored) {
        return this;
    }

    @Override
    public Duration readTimeout() {
        return timeout;
    }

    @Override
    public HttpClientBuilder readTimeout(Duration ignored) {
        return this;
    }

    @Override
    public HttpClient build() {
        return this;
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) {
        long deadline = nanos.getAsLong() + timeout.toNanos();
        for (int attempt = 1;; attempt++) {
            Duration left = Duration.ofNanos(deadline - nanos.getAsLong());
            if (left.isNegative() || left.isZero()) {
                throw timedOut();
            }
            HttpResponse<String> response;
            try {
                response = client.send(jdk(request, left), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (HttpTimeoutException e) {
                throw timedOut();
            } catch (IOException e) {
                if (attempt < ATTEMPTS) {
                    continue;
                }
                throw new HttpFailed("unreachable: " + (e.getMessage() == null ? "the connection failed"
                        : e.getMessage()), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new HttpFailed("interrupted", e);
            }
            int status = response.statusCode();
            if (status >= 200 && status < 300) {
                return SuccessfulHttpResponse.builder().statusCode(status).headers(response.headers().map())
                        .body(response.body()).build();
            }
            boolean retriable = status == 429 || status >= 500;
            Optional<Duration> wait = retriable && attempt < ATTEMPTS ? retryAfter(response.headers().map())
                    : Optional.empty();
            Duration remaining = Duration.ofNanos(deadline - nanos.getAsLong());
            if (wait.isEmpty() || wait.get().compareTo(retryAfterMax) > 0 || wait.get().compareTo(remaining) >= 0) {
                throw new HttpException(status, response.body());
            }
            try {
                sleeper.sleep(wait.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new HttpException(status, response.body());
            }
        }
    }

    /** What {@code Retry-After} asks (seconds or an HTTP date); 1 second when absent, empty when unreadable. */
    static Optional<Duration> retryAfter(Map<String, List<String>> headers) {
        String value = headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("retry-after"))
                .flatMap(e -> e.getValue().stream()).findFirst().orElse(null);
        if (value == null || value.isBlank()) {
            return Optional.of(NO_RETRY_AFTER);
        }
        try {
            double seconds = Double.parseDouble(value.strip());
            return seconds < 0 || !Double.isFinite(seconds) ? Optional.empty()
                    : Optional.of(Duration.ofMillis((long) Math.ceil(seconds * 1000)));
        } catch (NumberFormatException notSeconds) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(value.strip(), DateTimeFormatter.RFC_1123_DATE_TIME);
                Duration d = Duration.between(ZonedDateTime.now(at.getZone()), at);
                return Optional.of(d.isNegative() ? Duration.ZERO : d);
            } catch (RuntimeException notADate) {
                return Optional.empty();
            }
        }
    }

    private TimeoutException timedOut() {
        return new TimeoutException("no answer within " + timeout.toMillis() / 1000.0 + " s (all attempts)");
    }

    private static java.net.http.HttpRequest jdk(HttpRequest request, Duration left) {
        java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(URI.create(request.url()))
                .timeout(left);
        request.headers().forEach((name, values) -> {
            if (!RESTRICTED.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                values.forEach(v -> b.header(name, v));
            }
        });
        String body = request.body();
        java.net.http.HttpRequest.BodyPublisher publisher = body == null
                ? java.net.http.HttpRequest.BodyPublishers.noBody()
                : java.net.http.HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8);
        return b.method(request.method().name(), publisher).build();
    }

    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
        throw new UnsupportedOperationException("Engram's chat models do not stream");
    }

    /** A call that never got an HTTP answer. */
    static final class HttpFailed extends RuntimeException {
        HttpFailed(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
