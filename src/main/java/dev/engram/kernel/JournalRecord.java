package dev.engram.kernel;

import java.time.Instant;
import java.util.Objects;

/**
 * One record of a store's journal, of whichever tier wrote it: an entry's change or an erasure record
 * ({@link EntryRecord}, which the entries tier implements), a memory's note ({@link MemoryNote}: memories, banks,
 * slots, mental models) or a context's ({@link ContextNote}). Every record takes its seq in the store's one
 * journal; docs/journal-format.md is their JSON.
 */
public sealed interface JournalRecord permits JournalRecord.EntryRecord, JournalRecord.MemoryNote,
        JournalRecord.ContextNote {

    /** The kind prefix of a context's records. */
    String CONTEXT_KINDS = "context.";

    /** The record's position in its store's journal, gapless and in commit order. */
    long seq();

    /** When the change was made; it never orders records, {@link #seq} does. */
    Instant at();

    /** The bytes the record carries, as a page's byte bound counts them: an entry's content, or a note's JSON. */
    long bytes();

    /**
     * Who made the change: the writer's key ID ({@code key_...}), {@code jwt:} and the token's subject, or
     * {@code operator}; "" when not known (a change no request made, or one made before Engram recorded it).
     */
    String by();

    /**
     * The record of another tier at {@code seq}: a {@link ContextNote} when its kind starts with
     * {@value #CONTEXT_KINDS}, else a {@link MemoryNote}.
     */
    static JournalRecord note(long seq, Note note, Instant at) {
        return note(seq, note, at, "");
    }

    /** As {@link #note(long, Note, Instant)}, made by {@code by}. */
    static JournalRecord note(long seq, Note note, Instant at, String by) {
        return note.kind().startsWith(CONTEXT_KINDS) ? new ContextNote(seq, note, at, by)
                : new MemoryNote(seq, note, at, by);
    }

    /**
     * An entry's change (a write, a tombstone) or an erasure record; the entries tier's {@code Change} is the one
     * implementation.
     */
    non-sealed interface EntryRecord extends JournalRecord {

        /** Whether this is an erasure record rather than a change. */
        boolean isErasure();
    }

    /**
     * A record of the memories tier: a memory saved, archived or deleted, a bank's slot or settings, a mental model.
     *
     * @param note its kind (such as {@code memory.saved}), the memory's (or bank's, model's) key and its JSON
     */
    record MemoryNote(long seq, Note note, Instant at, String by) implements JournalRecord {

        /** A note whose writer is not known. */
        public MemoryNote(long seq, Note note, Instant at) {
            this(seq, note, at, "");
        }

        public MemoryNote {
            Objects.requireNonNull(note, "note");
            Objects.requireNonNull(at, "at");
            by = by == null ? "" : by;
        }

        @Override
        public long bytes() {
            return Utf8.length(note.body());
        }
    }

    /**
     * A record of the contexts tier: a context configured, its texts set, steps appended or replaced, compacted,
     * deleted.
     *
     * @param note its kind (such as {@code context.steps_appended}), the context's id and its JSON
     */
    record ContextNote(long seq, Note note, Instant at, String by) implements JournalRecord {

        /** A note whose writer is not known. */
        public ContextNote(long seq, Note note, Instant at) {
            this(seq, note, at, "");
        }

        public ContextNote {
            Objects.requireNonNull(note, "note");
            Objects.requireNonNull(at, "at");
            by = by == null ? "" : by;
            if (!note.kind().startsWith(CONTEXT_KINDS)) {
                throw new IllegalArgumentException("a context's record is of a kind context.*, not " + note.kind());
            }
        }

        @Override
        public long bytes() {
            return Utf8.length(note.body());
        }
    }
}
