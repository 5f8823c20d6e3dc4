package dev.engram.stores.files;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * JSON text as the reference library writes it (Go's {@code encoding/json}), so that a journal line Engram exports is
 * byte for byte the line the reference store would have written: {@code <}, {@code >} and {@code &} as
 * {@code \u003c}, {@code \u003e} and {@code \u0026}, U+2028 and U+2029 escaped, other non-ASCII as UTF-8, and times
 * as RFC 3339 in UTC with the fraction the time has and no trailing zeros ({@code time.RFC3339Nano}).
 */
final class GoJson {

    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss")
            .withZone(ZoneOffset.UTC);

    private GoJson() {
    }

    /** {@code s} as a JSON string, quotes included; a lone surrogate becomes U+FFFD, as Go writes invalid UTF-8. */
    static StringBuilder quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '<', '>', '&', '\u2028', '\u2029' -> unicode(out, c);
                default -> {
                    if (c < 0x20) {
                        unicode(out, c);
                    } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        out.append("\\ufffd");
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }

    private static void unicode(StringBuilder out, char c) {
        out.append("\\u").append(HEX[c >> 12 & 0xf]).append(HEX[c >> 8 & 0xf]).append(HEX[c >> 4 & 0xf])
                .append(HEX[c & 0xf]);
    }

    /** {@code t} as Go's {@code time.RFC3339Nano} in UTC: {@code 2026-09-20T10:00:03Z}, {@code ...03.5Z}. */
    static String time(Instant t) {
        String s = SECONDS.format(t);
        int nanos = t.getNano();
        if (nanos == 0) {
            return s + "Z";
        }
        String fraction = String.format("%09d", nanos);
        int end = fraction.length();
        while (fraction.charAt(end - 1) == '0') {
            end--;
        }
        return s + "." + fraction.substring(0, end) + "Z";
    }
}
