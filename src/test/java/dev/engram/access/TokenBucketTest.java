package dev.engram.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TokenBucketTest {

    static final long SECOND = 1_000_000_000L;

    @Test
    void theBurstPassesThenTheRateAndAFullBucketKeepsNoMore() {
        TokenBucket b = new TokenBucket(2, 3, 0);
        assertEquals(0, b.take(0));
        assertEquals(0, b.take(0));
        assertEquals(0, b.take(0));
        assertEquals(1, b.take(0), "empty: one token comes in half a second, said as 1 s");
        assertEquals(0, b.take(SECOND / 2));
        assertEquals(1, b.take(SECOND / 2));
        for (int i = 0; i < 3; i++) {
            assertEquals(0, b.take(100 * SECOND), "an hour idle refills to the burst, no more");
        }
        assertEquals(1, b.take(100 * SECOND));
    }

    @Test
    void aSlowRateSaysTheWholeWait() {
        TokenBucket b = new TokenBucket(0.1, 1, 0);
        assertEquals(0, b.take(0));
        assertEquals(10, b.take(0));
        assertEquals(5, b.take(5 * SECOND));
        assertEquals(0, b.take(10 * SECOND));
    }

    @Test
    void aClockGoingBackTakesNothingBack() {
        TokenBucket b = new TokenBucket(1, 1, 10 * SECOND);
        assertEquals(0, b.take(10 * SECOND));
        assertEquals(1, b.take(5 * SECOND));
        assertEquals(0, b.take(11 * SECOND));
    }

    @Test
    void aBucketNeedsARateAndABurst() {
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(1, 0, 0));
    }
}
