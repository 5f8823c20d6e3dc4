package dev.engram.contexts.tokens;

import dev.engram.contexts.messages.Message;
import java.util.List;
import java.util.Objects;

/**
 * The running token estimate of one context: the last count a provider reported plus what was added since.
 * {@link #correct} replaces both with a reported count; nothing here is ever negative unless a caller reports so.
 */
public final class TokenTracker {

    private final TokenCounter counter;
    private int lastKnownUsed;
    private int pendingDelta;

    /** A tracker at zero counting with {@code counter}. */
    public TokenTracker(TokenCounter counter) {
        this.counter = Objects.requireNonNull(counter, "counter");
    }

    /** The estimate: the last reported count plus everything added since. */
    public int estimateTotal() {
        return lastKnownUsed + pendingDelta;
    }

    /** The last count a provider reported (or {@link #correct} set). */
    public int lastKnownUsed() {
        return lastKnownUsed;
    }

    /** What was added since the last report. */
    public int pendingDelta() {
        return pendingDelta;
    }

    /** Adds the tokens of {@code text} to the pending delta. */
    public void addDelta(String text) {
        pendingDelta += counter.count(text);
    }

    /** Sets the estimate to {@code inputTokens} as a provider reported it; the pending delta goes to 0. */
    public void correct(int inputTokens) {
        lastKnownUsed = inputTokens;
        pendingDelta = 0;
    }

    /** Back to zero. */
    public void reset() {
        lastKnownUsed = 0;
        pendingDelta = 0;
    }

    /** Restores a saved state (for a store that persists the tracker). */
    public void restore(int lastKnown, int pending) {
        lastKnownUsed = lastKnown;
        pendingDelta = pending;
    }

    /** The tokens of {@code messages} with this tracker's counter; changes nothing. */
    public int estimateMessages(List<Message> messages) {
        return counter.countMessages(messages);
    }

    /** The counter this tracker counts with. */
    public TokenCounter counter() {
        return counter;
    }
}
