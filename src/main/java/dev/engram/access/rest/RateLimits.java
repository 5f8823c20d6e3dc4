package dev.engram.access.rest;

import com.github.benmanes.caffeine.cache.Cache;
import dev.engram.access.Caller;
import dev.engram.access.TokenBucket;
import dev.engram.kernel.Limited;
import dev.engram.ops.EngramConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * Each key's request rate on this replica: a {@link TokenBucket} per caller, kept while the caller is active. The
 * operator key is not limited. With N replicas behind a balancer a key may send up to N times the rate.
 */
@ApplicationScoped
public class RateLimits {

    private final double perSecond;
    private final int burst;
    private final Cache<String, TokenBucket> buckets;

    RateLimits(EngramConfig config) {
        this.perSecond = config.limits().requestsPerSecond();
        this.burst = config.limits().burst();
        this.buckets = Caches.keptByTheirCallers().expireAfterAccess(Duration.ofMinutes(10)).maximumSize(100_000)
                .build();
    }

    /** Counts one request of {@code caller}; {@link Limited} (RATE, with the seconds to wait) when over its rate. */
    public void check(Caller caller) {
        if (perSecond <= 0 || caller.operatorKey()) {
            return;
        }
        long now = System.nanoTime();
        long wait = buckets.get(caller.id(), id -> new TokenBucket(perSecond, burst, now)).take(now);
        if (wait > 0) {
            throw new Limited(Limited.Kind.RATE, "requests-per-second", (long) Math.ceil(perSecond), wait,
                    "This key sent more than " + burst + " requests at once or " + perSecond + " a second. Retry "
                    + "after the seconds in Retry-After, and spread the requests out; the operator can raise "
                    + "ENGRAM_LIMITS_REQUESTS_PER_SECOND.");
        }
    }
}
