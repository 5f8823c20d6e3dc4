package dev.engram.access.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.RemovalCause;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The door's caches are kept up by the threads that use them, not by tasks handed to another pool. */
class CachesTest {

    @Test
    void an_eviction_runs_on_the_thread_that_wrote_past_the_size_and_before_its_write_returns() {
        List<Thread> evictedOn = new CopyOnWriteArrayList<>();
        Cache<String, String> cache = Caches.keptByTheirCallers().maximumSize(2)
                .removalListener((String key, String value, RemovalCause cause) -> evictedOn.add(Thread.currentThread()))
                .build();
        for (int i = 0; i < 50; i++) {
            cache.put("key-" + i, "value");
        }
        assertEquals(48, evictedOn.size(), "every eviction is done when the writes return");
        evictedOn.forEach(thread -> assertEquals(Thread.currentThread(), thread));
        assertEquals(2, cache.estimatedSize());
    }
}
