package dev.engram.documents.stores.rest;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.Utf8;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** The query parameters of the Memory Stores API, each null when absent, else checked and refused (400) when bad. */
final class QueryValues {

    private QueryValues() {
    }

    static Integer integer(String value, String field) {
        if (value == null) {
            return null;
        }
        try {
            return Integer.valueOf(value.trim());
        } catch (NumberFormatException e) {
            throw new Invalid("number-format", field, field + " must be a whole number, not \"" + shown(value) + "\".");
        }
    }

    /** A time in RFC 3339 ({@code 2026-11-29T10:00:00Z}); a {@code +} of its offset sent unencoded reads as a space. */
    static Instant time(String value, String field) {
        if (value == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value.trim().replace(' ', '+')).toInstant();
        } catch (DateTimeParseException e) {
            throw new Invalid("time-format", field, field + " must be a time in RFC 3339, such as "
                    + "2026-11-29T10:00:00Z, not \"" + shown(value) + "\".");
        }
    }

    static boolean bool(String value, String field) {
        if (value == null || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw new Invalid("boolean-format", field, field + " is true or false, not \"" + shown(value) + "\".");
    }

    /**
     * A text filter ({@code memory_id}, {@code session_id}, ...), refused when it holds what no stored text can (NUL,
     * an unpaired surrogate: the one text rule), which PostgreSQL would fail on rather than match nothing.
     */
    static String text(String value, String field) {
        int at = value == null ? -1 : Utf8.firstUnstorable(value);
        if (at >= 0) {
            boolean nul = value.charAt(at) == 0;
            throw new Invalid(nul ? "text-nul" : "text-encoding", field, field + " holds " + (nul
                    ? "a NUL character" : "an unpaired surrogate") + " at character " + at + ", which no stored "
                    + "text holds; send well-formed Unicode text without NUL.");
        }
        return value;
    }

    static String shown(String value) {
        String s = value.replaceAll("[^\\x20-\\x7e]", "?");
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
