package dev.engram.memories.rank;

import java.time.Duration;
import java.time.Instant;

/**
 * How well a memory answers a query: {@code text × boost × decay}, where {@code text = r/(1+r)} for the number
 * of query tokens the memory contains, {@code boost = 0.5 + 0.5·importance} (an importance of 0 or less counts as
 * 0.5), and {@code decay = e^(−0.007·days)} for its fractional age in days since it was created (floored at 0), a
 * half-life of about 99 days. Last access and updates do not count.
 */
public final class Relevance {

    /** The decay rate per day. */
    public static final double DECAY_PER_DAY = 0.007;

    private static final double NANOS_PER_DAY = 86_400d * 1_000_000_000d;

    private Relevance() {
    }

    /** The score of a memory whose text relevance is {@code r} (the query tokens it contains). */
    public static double score(double r, double importance, Instant createdAt, Instant now) {
        return text(r) * boost(importance) * decay(days(createdAt, now));
    }

    /** {@code r/(1+r)}: 0 for no relevance (a negative r counts as none), towards 1 as it grows. */
    public static double text(double r) {
        double relevance = Math.max(0, r);
        return relevance / (1 + relevance);
    }

    /** {@code 0.5 + 0.5·importance}; an importance of 0 or less counts as 0.5. */
    public static double boost(double importance) {
        double imp = importance > 0 ? importance : 0.5;
        return 0.5 + 0.5 * imp;
    }

    /** {@code e^(−0.007·days)}, days floored at 0. */
    public static double decay(double days) {
        return Math.exp(-DECAY_PER_DAY * Math.max(0, days));
    }

    /** The fractional days from {@code createdAt} to {@code now}; negative when it lies ahead. */
    public static double days(Instant createdAt, Instant now) {
        Duration age = Duration.between(createdAt, now);
        return (age.getSeconds() * 1_000_000_000d + age.getNano()) / NANOS_PER_DAY;
    }
}
