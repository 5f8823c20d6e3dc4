package dev.engram.kernel;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** How Engram writes a time, in the API and in the journal alike: RFC 3339, UTC, the fraction as long as needed. */
public final class Times {

    /** The year 10000's first second (epoch seconds): ISO 8601 writes later years with a sign and more digits. */
    private static final long YEAR_10000 = 253_402_300_800L;

    private Times() {
    }

    /** {@code 2026-11-29T23:26:16.83483Z}; {@code 2026-11-29T23:26:16Z} for a whole second. */
    public static String format(Instant value) {
        long seconds = value.getEpochSecond();
        if (seconds < 0 || seconds >= YEAR_10000) {
            return formatted(value);
        }
        // Every time Engram writes is in this range: written into one array, not through DateTimeFormatter's builder
        // (which was 0.6 KB of garbage for each entry a response holds).
        LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
        int nanos = value.getNano();
        int digits = 9;
        while (digits > 0 && nanos % 10 == 0) {
            nanos /= 10;
            digits--;
        }
        byte[] out = new byte[20 + (digits == 0 ? 0 : digits + 1)];
        put(out, 0, t.getYear(), 4);
        out[4] = '-';
        put(out, 5, t.getMonthValue(), 2);
        out[7] = '-';
        put(out, 8, t.getDayOfMonth(), 2);
        out[10] = 'T';
        put(out, 11, t.getHour(), 2);
        out[13] = ':';
        put(out, 14, t.getMinute(), 2);
        out[16] = ':';
        put(out, 17, t.getSecond(), 2);
        if (digits > 0) {
            out[19] = '.';
            put(out, 20, nanos, digits);
        }
        out[out.length - 1] = 'Z';
        return new String(out, StandardCharsets.US_ASCII);
    }

    /** {@code value} through the ISO formatter, its fraction's trailing zeros dropped: any instant at all. */
    static String formatted(Instant value) {
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

    /** Writes {@code value} as {@code width} decimal digits, zero-padded, at {@code at}. */
    private static void put(byte[] out, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            out[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }
}
