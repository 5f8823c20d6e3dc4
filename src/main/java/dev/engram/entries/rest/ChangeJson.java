package dev.engram.entries.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.engram.entries.Change;
import dev.engram.entries.Erasure;
import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Note;
import java.time.Instant;

/**
 * A journal record as JSON, member for member the reference library's {@code journal.jsonl} line, with members of
 * Engram's own: {@code kind} ("erasure" on an erasure record; on another tier's record its kind, such as
 * {@code memory.saved}, with {@code record} its JSON and no {@code entry}), {@code by} (who made the change: a key
 * ID, {@code jwt:} and a subject, or {@code operator}; left out when not known), {@code erased} (on a record whose
 * content was erased, the erasure record's seq) and {@code erasure} (who erased, and why).
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ChangeJson(long seq, String kind, EntryJson entry, String prev, String replaced, String session,
        String source, String by, Instant at, Long erased, ErasureJson erasure, @JsonRawValue String record) {

    /** The {@code kind} of an erasure record. */
    static final String ERASURE = "erasure";

    /** Who erased and why; both always present, "" when unknown or not given. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record ErasureJson(String by, String reason) {

        static ErasureJson of(Erasure e) {
            return new ErasureJson(e.by(), e.reason());
        }
    }

    /** The record's JSON: an entry's change or erasure record, or a memory's or a context's note. */
    public static ChangeJson of(JournalRecord r) {
        if (r instanceof JournalRecord.MemoryNote m) {
            return note(m.seq(), m.note(), m.at(), m.by());
        }
        if (r instanceof JournalRecord.ContextNote c) {
            return note(c.seq(), c.note(), c.at(), c.by());
        }
        return of((Change) r);
    }

    public static ChangeJson of(Change c) {
        return new ChangeJson(c.seq(), c.isErasure() ? ERASURE : null, EntryJson.of(c.entry()), c.prev(),
                c.replaced(), c.session(), c.source(), c.by(), c.at(), c.erased() == 0 ? null : c.erased(),
                c.erasure().map(ErasureJson::of).orElse(null), null);
    }

    private static ChangeJson note(long seq, Note note, Instant at, String by) {
        return new ChangeJson(seq, note.kind(), null, null, null, null, null, by, at, null, null, note.body());
    }
}
