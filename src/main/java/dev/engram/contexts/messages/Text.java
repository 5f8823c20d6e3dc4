package dev.engram.contexts.messages;

import dev.engram.kernel.Utf8;

/**
 * The string rules the reference applies, measured as it measures them: lengths in UTF-8 bytes, truncation in code
 * points, trailing trim over a fixed set of invisible characters. A lone surrogate counts as U+FFFD (3 bytes).
 */
public final class Text {

    /** The trailing characters {@link #trimRight} strips: whitespace, NUL and the zero-width ones. */
    static final String INVISIBLE = " \t\n\r\0\f\u000b\u200b\u200c\u200d\ufeff";

    private Text() {
    }

    /** {@code s} without trailing {@link #INVISIBLE} characters; "" for null. */
    public static String trimRight(String s) {
        if (s == null) {
            return "";
        }
        int end = s.length();
        while (end > 0 && INVISIBLE.indexOf(s.charAt(end - 1)) >= 0) {
            end--;
        }
        return s.substring(0, end);
    }

    /** Whether anything is left of {@code s} after {@link #trimRight}; false for null. */
    public static boolean visible(String s) {
        return !trimRight(s).isEmpty();
    }

    /** The number of UTF-8 bytes of {@code s}; 0 for null. */
    public static int utf8Length(String s) {
        return s == null ? 0 : Utf8.length(s);
    }

    /**
     * {@code s} cut to at most {@code max} code points: "" when {@code max <= 0}, {@code s} when it fits, else the
     * first {@code max - 1} code points and "…" (so a cut to 1 is "…" alone).
     */
    public static String truncate(String s, int max) {
        if (s == null || max <= 0) {
            return "";
        }
        if (s.codePointCount(0, s.length()) <= max) {
            return s;
        }
        return s.substring(0, s.offsetByCodePoints(0, max - 1)) + "…";
    }

    /** {@code s} without leading and trailing white space as Go's {@code strings.TrimSpace} sees it. */
    public static String trimSpace(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && isSpace(s.codePointAt(start))) {
            start += Character.charCount(s.codePointAt(start));
        }
        while (end > start && isSpace(s.codePointBefore(end))) {
            end -= Character.charCount(s.codePointBefore(end));
        }
        return s.substring(start, end);
    }

    private static boolean isSpace(int c) {
        return c == ' ' || (c >= '\t' && c <= '\r') || c == 0x85 || c == 0xA0 || c == 0x1680
                || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F
                || c == 0x3000;
    }

    /** "" for null, else {@code s}. */
    public static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
