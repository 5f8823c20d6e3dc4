package dev.engram.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The one collection after start-up: made once, after its delay, on a daemon thread; never when set to 0. */
class HeapAfterStartTest {

    @Test
    void collectsOnceAfterTheDelay() throws InterruptedException {
        AtomicInteger collected = new AtomicInteger();
        long t0 = System.nanoTime();
        long[] ranAt = {0};
        Thread t = HeapAfterStart.schedule(Duration.ofMillis(200), () -> {
            ranAt[0] = System.nanoTime();
            collected.incrementAndGet();
        });
        assertTrue(t.isDaemon(), "it never keeps the JVM from stopping");
        t.join(5_000);
        assertEquals(1, collected.get());
        assertTrue(ranAt[0] - t0 >= Duration.ofMillis(200).toNanos(), "not before its delay");
    }

    @Test
    void zeroTurnsItOff() {
        AtomicInteger collected = new AtomicInteger();
        assertNull(HeapAfterStart.schedule(Duration.ZERO, collected::incrementAndGet));
        assertEquals(0, collected.get());
    }
}
