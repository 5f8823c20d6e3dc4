package dev.engram.llm;

import dev.engram.llm.EmbeddingFailed.Reason;
import dev.engram.memories.rank.Embedder;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.exception.HttpException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * An embedding model behind the checks every answer must pass: one vector per text, each of the model's length
 * (configured, or learned from the first answer and held from then on), finite and not zero; each is returned scaled
 * to unit length. Anything else, and a model that cannot be reached or takes too long, is an {@link EmbeddingFailed}
 * and never a vector. Texts are sent {@code batchSize} at a time.
 *
 * <p>Metrics: {@code engram.embedding.seconds}, a timer of the model calls that passed, and
 * {@code engram.embedding.failures}, a counter of those that did not, tagged by {@code reason}. A failure is logged
 * at WARN, at most once a minute, with the model and what was wrong.
 */
final class GuardedEmbedder implements Embedder {

    /** The least time between two warnings of failures. */
    static final long WARN_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private static final Logger LOG = Logger.getLogger(GuardedEmbedder.class);

    private final String provider;
    private final String model;
    private final ModelSource source;
    private final int batchSize;
    private final AtomicInteger dimensions;
    private final Timer calls;
    private final Map<Reason, Counter> failures = new EnumMap<>(Reason.class);
    private final AtomicLong lastWarning = new AtomicLong();
    private final AtomicInteger unwarned = new AtomicInteger();

    /**
     * {@code model} of {@code provider} from {@code source}; {@code dimensions} 0 learns them from the first answer.
     */
    GuardedEmbedder(String provider, String model, ModelSource source, int dimensions, int batchSize,
            MeterRegistry registry) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be at least 1, not " + batchSize);
        }
        this.provider = provider;
        this.model = model;
        this.source = source;
        this.batchSize = batchSize;
        this.dimensions = new AtomicInteger(Math.max(0, dimensions));
        this.calls = Timer.builder("engram.embedding.seconds")
                .description("Calls to the embedding model that answered a valid vector for every text")
                .register(registry);
        for (Reason reason : Reason.values()) {
            failures.put(reason, Counter.builder("engram.embedding.failures")
                    .description("Calls to the embedding model that failed, by reason; none of their vectors is used")
                    .tag("reason", reason.tag()).register(registry));
        }
        this.lastWarning.set(System.nanoTime() - WARN_INTERVAL_NANOS);
    }

    @Override
    public String model() {
        return model;
    }

    /** The vectors' length; 0 until a remote model without configured dimensions has answered once. */
    @Override
    public int dimensions() {
        return dimensions.get();
    }

    /**
     * The unit vectors of {@code texts}, in order, in calls of at most {@code batchSize} texts; throws
     * {@link EmbeddingFailed} when a call fails, and {@link IllegalArgumentException} for a blank text (which has
     * nothing to embed; it is not sent).
     */
    @Override
    public List<float[]> embed(List<String> texts) {
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException("texts[" + i + "] is blank; there is nothing to embed");
            }
        }
        List<float[]> vectors = new ArrayList<>(texts.size());
        for (int from = 0; from < texts.size(); from += batchSize) {
            vectors.addAll(call(texts.subList(from, Math.min(texts.size(), from + batchSize))));
        }
        return vectors;
    }

    /** What the embedder is and whether it is loaded. */
    EmbedderStatus status() {
        return new EmbedderStatus(provider, model, dimensions(), source.loaded(), source.problem().orElse(""));
    }

    private List<float[]> call(List<String> texts) {
        try {
            var lc4j = source.model();
            long start = System.nanoTime();
            List<Embedding> answer;
            try {
                answer = lc4j.embedAll(texts.stream().map(TextSegment::from).toList()).content();
            } catch (RuntimeException e) {
                throw new EmbeddingFailed(reasonOf(e), "The embedding model " + provider + " " + model + " failed: "
                        + ChatModels.cause(e), e);
            }
            List<float[]> vectors = checked(answer, texts.size());
            calls.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            return vectors;
        } catch (EmbeddingFailed e) {
            failures.get(e.reason()).increment();
            warn(e);
            throw e;
        }
    }

    /** {@code answer}'s vectors at unit length, when there is one of the model's length for each of {@code count}. */
    private List<float[]> checked(List<Embedding> answer, int count) {
        if (answer == null) {
            throw wrong(Reason.UNREADABLE, "the answer held no vectors");
        }
        if (answer.size() != count) {
            throw wrong(Reason.COUNT, "the answer held " + answer.size() + " vectors for " + count + " texts");
        }
        int held = dimensions.get();
        int length = held;
        List<float[]> vectors = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            float[] v = answer.get(i) == null ? null : answer.get(i).vector();
            if (v == null) {
                throw wrong(Reason.UNREADABLE, "the answer held no vector for text " + i);
            }
            if (v.length == 0) {
                throw wrong(Reason.DIMENSIONS, "vector " + i + " is empty");
            }
            if (length == 0) {
                length = v.length;
            }
            if (v.length != length) {
                throw wrong(Reason.DIMENSIONS, "vector " + i + " has " + v.length + " dimensions, not " + length
                        + (held == 0 ? " as the answer's first" : ""));
            }
            Optional<float[]> unit = Embedder.unit(v, length);
            if (unit.isEmpty()) {
                throw finite(v) ? wrong(Reason.ZERO, "vector " + i + " is all zeros")
                        : wrong(Reason.NOT_FINITE, "vector " + i + " holds NaN or an infinity");
            }
            vectors.add(unit.get());
        }
        if (held == 0 && !dimensions.compareAndSet(0, length) && dimensions.get() != length) {
            throw wrong(Reason.DIMENSIONS, "the vectors have " + length + " dimensions, not " + dimensions.get());
        }
        return vectors;
    }

    private static boolean finite(float[] v) {
        for (float x : v) {
            if (!Float.isFinite(x)) {
                return false;
            }
        }
        return true;
    }

    private EmbeddingFailed wrong(Reason reason, String what) {
        return new EmbeddingFailed(reason, "The embedding model " + provider + " " + model + " answered wrongly: "
                + what + ".", null);
    }

    /** Why a call to the model threw {@code e}: the first cause that says. */
    static Reason reasonOf(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof EmbeddingFailed failed) {
                return failed.reason();
            }
            if (t instanceof dev.langchain4j.exception.TimeoutException || t instanceof HttpTimeoutException
                    || t instanceof SocketTimeoutException || t instanceof java.util.concurrent.TimeoutException) {
                return Reason.TIMEOUT;
            }
            if (t instanceof HttpException) {
                return Reason.REFUSED;
            }
            if (t instanceof com.fasterxml.jackson.core.JacksonException) {
                return Reason.UNREADABLE;
            }
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof IOException || t instanceof UncheckedIOException) {
                return Reason.UNREACHABLE;
            }
        }
        return Reason.UNREADABLE;
    }

    /** Logs {@code e} at WARN unless a warning was logged less than a minute ago (then it is counted for the next). */
    private void warn(EmbeddingFailed e) {
        long now = System.nanoTime();
        long last = lastWarning.get();
        if (now - last < WARN_INTERVAL_NANOS || !lastWarning.compareAndSet(last, now)) {
            unwarned.incrementAndGet();
            return;
        }
        int since = unwarned.getAndSet(0);
        LOG.warnf("Embedding failed (%s): %s%s", e.reason().tag(), e.getMessage(),
                since == 0 ? "" : " (and " + since + " more failures since the last warning)");
    }
}
