package dev.engram.access;

/**
 * A caller's request allowance: {@code burst} requests at once, refilled at {@code perSecond}. Time is passed in
 * (nanoseconds, monotonic), so the bucket is pure and its tests need no clock.
 */
public final class TokenBucket {

    private static final double NANOS = 1_000_000_000d;

    private final double perSecond;
    private final double burst;
    private double tokens;
    private long last;

    public TokenBucket(double perSecond, int burst, long now) {
        if (perSecond <= 0 || burst < 1) {
            throw new IllegalArgumentException("a bucket needs a positive rate and a burst of at least 1");
        }
        this.perSecond = perSecond;
        this.burst = burst;
        this.tokens = burst;
        this.last = now;
    }

    /**
     * Takes one request's token at {@code now}: 0 when it was there, else the whole seconds to wait until one will
     * be (at least 1), and nothing is taken.
     */
    public synchronized long take(long now) {
        if (now > last) {
            tokens = Math.min(burst, tokens + (now - last) / NANOS * perSecond);
            last = now;
        }
        if (tokens >= 1) {
            tokens -= 1;
            return 0;
        }
        return Math.max(1, (long) Math.ceil((1 - tokens) / perSecond));
    }
}
