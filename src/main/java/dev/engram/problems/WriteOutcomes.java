package dev.engram.problems;

import dev.engram.entries.Change;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.Map;

/**
 * Counts entry writes by outcome, as {@code engram_writes_total{outcome=...}}: created, replaced and forgotten
 * when a write lands; conflict, too_large and invalid when one is refused.
 */
@ApplicationScoped
public class WriteOutcomes {

    enum Outcome {
        CREATED, REPLACED, FORGOTTEN, CONFLICT, TOO_LARGE, INVALID;

        String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Map<Outcome, Counter> counters = new EnumMap<>(Outcome.class);

    WriteOutcomes(MeterRegistry registry) {
        for (Outcome o : Outcome.values()) {
            counters.put(o, Counter.builder("engram.writes").description("Entry writes by outcome")
                    .tag("outcome", o.tag()).register(registry));
        }
    }

    /** Counts a write that landed, and returns it. */
    public Change landed(Change change) {
        Outcome o = change.entry().deleted() ? Outcome.FORGOTTEN
                : change.replaced().isEmpty() ? Outcome.CREATED : Outcome.REPLACED;
        counters.get(o).increment();
        return change;
    }

    /** Counts a write tool's call the store refused ({@code invalid}, {@code too_large}, {@code conflict}). */
    public void refusedTool(String tool, String kind) {
        if (tool.equals("memory_search")) {
            return;
        }
        switch (kind) {
            case "conflict" -> counters.get(Outcome.CONFLICT).increment();
            case "too_large" -> counters.get(Outcome.TOO_LARGE).increment();
            case "invalid" -> counters.get(Outcome.INVALID).increment();
            default -> {
            }
        }
    }

    /** Counts a refused entry write; problems on other requests are not writes and are not counted. */
    void refused(HttpServerRequest request, Problem problem) {
        if (request == null || request.method() == HttpMethod.GET || !request.path().contains("/entries/")) {
            return;
        }
        switch (problem.slug()) {
            case "precondition-failed" -> counters.get(Outcome.CONFLICT).increment();
            case "too-large", "body-too-large" -> counters.get(Outcome.TOO_LARGE).increment();
            case "invalid", "malformed", "unsupported-media-type" -> counters.get(Outcome.INVALID).increment();
            default -> {
            }
        }
    }
}
