package dev.engram.kernel;

/**
 * A render bound the block cannot meet: under one byte, under what the title, the summary and a heading per scope
 * take whatever the block shows, or a scope cap under zero. {@code needed} is the smallest bound that would work,
 * or -1 when no bound would (a negative cap).
 */
public final class Budget extends EngramException {

    private final int bound;
    private final int needed;

    public Budget(int bound, int needed, String message) {
        super(message);
        this.bound = bound;
        this.needed = needed;
    }

    /** The bound that was asked for. */
    public int bound() {
        return bound;
    }

    /** The smallest bound that would render, or -1 when the refusal is about something else. */
    public int needed() {
        return needed;
    }
}
