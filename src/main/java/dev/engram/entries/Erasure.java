package dev.engram.entries;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.Utf8;

/**
 * Who erased an entry's content from the journal, and why: carried by the erasure record that
 * {@link Store#erase} appends.
 *
 * @param by the caller that erased, "" when requests are not authenticated
 * @param reason why, as the caller gave it (a ticket of a deletion request, say); "" for none; at most
 *     {@link #MAX_REASON_BYTES} bytes with no NUL
 */
public record Erasure(String by, String reason) {

    /** The most bytes a reason may have. */
    public static final int MAX_REASON_BYTES = 1024;

    public Erasure {
        by = by == null ? "" : by;
        reason = reason == null ? "" : reason;
        if (Utf8.length(reason) > MAX_REASON_BYTES || !storable(reason)) {
            throw new Invalid("erasure-reason", "reason", "The reason must be UTF-8 text of at most "
                    + MAX_REASON_BYTES + " bytes with no NUL; name the request, such as a ticket number.");
        }
    }

    /** Whether PostgreSQL can keep {@code s}: no NUL and no unpaired surrogate. */
    private static boolean storable(String s) {
        return Utf8.firstUnstorable(s) < 0;
    }
}
