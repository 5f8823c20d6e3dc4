package dev.engram.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A time is written as the ISO formatter writes it with its fraction's trailing zeros dropped: the one-array path
 * every time of years 1970-9999 takes gives, for each of these, what the formatter gives.
 */
class TimesTest {

    @Test
    void times_are_rfc_3339_with_the_fraction_as_long_as_needed() {
        assertEquals("2026-11-29T23:26:16.83483Z", Times.format(Instant.parse("2026-11-29T23:26:16.834830Z")));
        assertEquals("2026-11-29T23:26:16Z", Times.format(Instant.parse("2026-11-29T23:26:16.000Z")));
        assertEquals("2026-01-02T03:04:05.000000001Z", Times.format(Instant.parse("2026-01-02T03:04:05.000000001Z")));
        assertEquals("1970-01-01T00:00:00Z", Times.format(Instant.EPOCH));
        assertEquals("2024-02-29T12:00:00.5Z", Times.format(Instant.parse("2024-02-29T12:00:00.500Z")));
    }

    @Test
    void every_instant_is_written_as_the_formatter_writes_it() {
        SplittableRandom random = new SplittableRandom(25);
        for (int i = 0; i < 200_000; i++) {
            long seconds = random.nextLong(-400_000_000_000L, 400_000_000_000L);
            int nanos = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1_000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1_000;
                default -> random.nextInt(1_000_000_000);
            };
            Instant t = Instant.ofEpochSecond(seconds, nanos);
            assertEquals(Times.formatted(t), Times.format(t), t::toString);
        }
        for (Instant edge : new Instant[] {Instant.ofEpochSecond(0, 999_999_999), Instant.ofEpochSecond(-1),
                Instant.ofEpochSecond(253_402_300_799L, 999_999_999), Instant.ofEpochSecond(253_402_300_800L),
                Instant.MIN, Instant.MAX}) {
            assertEquals(Times.formatted(edge), Times.format(edge), edge::toString);
        }
    }
}
