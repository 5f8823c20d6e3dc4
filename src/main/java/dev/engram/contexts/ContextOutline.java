package dev.engram.contexts;

import dev.engram.contexts.tokens.TokenCounter;
import java.time.Instant;
import java.util.Objects;

/**
 * A context without its steps and texts, as a listing shows it: its id and configuration, how many steps it holds,
 * the token estimate of what it holds (the tracker's, without a memory block), how many leading steps its compacted
 * prefix stands for (0 when it was not compacted since its last seeding), and when it was created and last changed.
 */
public record ContextOutline(String id, ContextConfig config, int steps, int estimate, int compactedThroughIndex,
        Instant created, Instant updated) {

    public ContextOutline {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(created, "created");
        Objects.requireNonNull(updated, "updated");
    }

    /** Whether it holds a compacted prefix. */
    public boolean compacted() {
        return compactedThroughIndex > 0;
    }

    /** The fill of the estimate against the effective maximum, a memory block not counted. */
    public FillCheck fill() {
        return FillCheck.of(estimate, config.effectiveMax(), config.thresholds());
    }

    /**
     * A context holding only this one's configuration and estimate (no texts, no steps): its fill is this one's, and
     * a memory block shown to it ({@link Context#showMemoryBlock}) is counted as a prompt counts it.
     */
    public Context asEstimate() {
        Context c = new Context(config, TokenCounter.named(config.tokenCounter()), null);
        c.tracker().restore(estimate, 0);
        return c;
    }

    /** The outline of {@code state} under {@code config}: its estimate and compacted prefix, and its steps counted. */
    public static ContextOutline of(String id, ContextConfig config, ContextState state, Instant created,
            Instant updated) {
        return new ContextOutline(id, config, state.steps().size(), state.lastKnownUsed() + state.pendingDelta(),
                state.compactedThroughIndex(), created, updated);
    }
}
