package dev.engram.kernel;

/**
 * A limit of the service reached: a caller's request rate, a quota, or what one replica can hold at once (journal
 * followers). {@code limit} names it, {@code max} is its value, and {@code retryAfterSeconds} says when to try
 * again, or 0 when waiting will not help (a quota: remove something first, or ask for a larger one).
 */
public final class Limited extends EngramException {

    /** What kind of limit: the caller's rate, the caller's quota, or the service's capacity. */
    public enum Kind { RATE, QUOTA, CAPACITY }

    private final Kind kind;
    private final String limit;
    private final long max;
    private final long retryAfterSeconds;

    public Limited(Kind kind, String limit, long max, long retryAfterSeconds, String message) {
        super(message);
        this.kind = kind;
        this.limit = limit;
        this.max = max;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public Kind kind() {
        return kind;
    }

    /** The limit's name, such as {@code journal-followers}. */
    public String limit() {
        return limit;
    }

    /** The limit's value. */
    public long max() {
        return max;
    }

    /** Seconds after which a retry may succeed, or 0 when it will not until something changes. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
