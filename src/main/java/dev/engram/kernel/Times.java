package dev.engram.kernel;

import java.time.Instant;
import java.time.format.DateTimeFormatter;

/** How Engram writes a time, in the API and in the journal alike: RFC 3339, UTC, the fraction as long as needed. */
public final class Times {

    private Times() {
    }

    /** {@code 2026-11-29T23:26:16.83483Z}; {@code 2026-11-29T23:26:16Z} for a whole second. */
    public static String format(Instant value) {
        String s = DateTimeFormatter.ISO_INSTANT.format(value);
        int dot = s.indexOf('.');
        if (dot < 0) {
            return s;
        }
        int last = s.length() - 2;
        while (last > dot && s.charAt(last) == '0') {
            last--;
        }
        return s.substring(0, last == dot ? dot : last + 1) + "Z";
    }
}
