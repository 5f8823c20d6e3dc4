package dev.engram.access.rest;

import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The caches a request consults at the door (keys, rate buckets, stores known to exist, console sessions). Their
 * upkeep (expiry, eviction, the read buffers' drain) runs on the thread that used the cache, not as a task on the
 * common fork-join pool. That task woke a pool thread every few reads: its own samples were under 1% of a point
 * read's, but on two cores the third runnable thread made every read dearer, by a tenth to a fifth of its CPU in
 * profiles by hand (docs/benchmarks.md, 2026-12-07).
 */
final class Caches {

    private Caches() {
    }

    static Caffeine<Object, Object> keptByTheirCallers() {
        return Caffeine.newBuilder().executor(Runnable::run);
    }
}
