package dev.engram.console.journal;

import java.time.Instant;
import java.util.List;

/**
 * One record of a store's journal as a row of the timeline shows it. Every text an agent wrote in it (names,
 * sessions, content in a diff, a note's summary) is plain text, for the template to escape.
 *
 * @param kind what happened, as the page names it: {@code created}, {@code written}, {@code forgotten},
 *     {@code erasure}, or a note's kind such as {@code memory.saved}
 * @param css the row's class: {@code write}, {@code forget}, {@code erasure} or {@code note}
 * @param scope the entry's scope, or "" on a note
 * @param name the entry's name, or "" on a note
 * @param subject what a note is about (a memory's, a context's id), or "" on an entry's record
 * @param session the session that wrote it, or ""
 * @param by who wrote it (a key ID, {@code jwt:} and a subject, {@code operator}), or "" when not known
 * @param summary a line about the record: a note's summary, an erasure's reason, a forget
 * @param diff on an entry's write, the change from the version it replaced; null when there is none to show
 * @param note why a write shows no diff, or what else changed (its meta), or ""
 * @param lost what a lost update overwrote unseen; null on any other record
 * @param bytes the bytes it carries: an entry's content, a note's JSON
 */
public record RecordRow(long seq, Instant at, String kind, String css, String scope, String name, String subject,
        String session, String by, String summary, DiffView diff, String note, Lost lost, long bytes) {

    /** Whether this is an entry's record, which links to the entry and its history. */
    public boolean entry() {
        return !scope.isEmpty();
    }

    /** Whether the entry may still be live: its record is a write (a forget or an erasure leaves no entry). */
    public boolean live() {
        return css.equals("write");
    }

    /**
     * What a lost update overwrote without having seen it.
     *
     * @param baseSeq the seq of the version it was built on, 0 when it was built on none or that is not known
     * @param overwritten the records it overwrote, oldest first; the last is the one it replaced
     * @param complete whether {@code overwritten} holds them all
     * @param changes what the overwritten writes had changed, from the base to the version overwritten; null when a
     *     text in it was erased or the base is not known
     * @param overwrittenLines the content of the version it overwrote, a line each; empty when the entry was not live
     */
    public record Lost(long baseSeq, List<Overwritten> overwritten, boolean complete, DiffView changes,
            List<String> overwrittenLines) {

        public Lost {
            overwritten = List.copyOf(overwritten);
            overwrittenLines = List.copyOf(overwrittenLines);
        }

        /** The seq of the version it replaced, or 0 when none is known. */
        public long replacedSeq() {
            return overwritten.isEmpty() ? 0 : overwritten.get(overwritten.size() - 1).seq();
        }
    }

    /** One record a lost update overwrote: its seq, what it did, its session and writer. */
    public record Overwritten(long seq, String what, String session, String by) {
    }
}
