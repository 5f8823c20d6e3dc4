package dev.engram.access.rest;

import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The caches a request consults at the door (keys, rate buckets, stores known to exist, console sessions). Their
 * upkeep (expiry, eviction, the read buffers' drain) runs on the thread that used the cache, not as a task on the
 * common fork-join pool: that task woke a pool thread every few reads, a hand-off that cost more than the upkeep
 * itself (about 0.8% of a point read's CPU).
 */
final class Caches {

    private Caches() {
    }

    static Caffeine<Object, Object> keptByTheirCallers() {
        return Caffeine.newBuilder().executor(Runnable::run);
    }
}
