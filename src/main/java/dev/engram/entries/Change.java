package dev.engram.entries;

import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Scope;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One journal record of the entries tier: the entry as it was after the change, what it replaced, and who made it;
 * or, as an erasure record ({@link #erasure} present), the note that an entry's content was erased from the journal.
 * Records of the other tiers are {@link JournalRecord}s of their own, never a {@code Change}.
 *
 * @param seq the record's position in its store's journal, gapless and in commit order; the cursor
 *     {@link Store#journal} takes
 * @param entry the entry after the change; a tombstone carries the last content with {@code deleted} set; an
 *     erased record carries no content or meta, and keeps its hash
 * @param prev the content hash the write was built on: the one the caller named with {@link PutOptions#basedOn},
 *     else the one the store held (which a precondition, {@link PutOptions#ifVersion}, has pinned); "" for a create
 * @param replaced the hash the store held when the change landed, "" for a create; records of one entry chain
 *     through it
 * @param session the session that wrote the change, or ""
 * @param source where a change the store did not write came from, "" for a write through the store
 * @param at when the change was made; it never orders records, {@code seq} does
 * @param erased the seq of the erasure record that blanked this record's content and meta, 0 when not erased
 * @param erasure on an erasure record, who erased and why; empty on every other record
 * @param by who made the change: the writer's key ID, {@code jwt:} and the token's subject, or {@code operator};
 *     "" when not known ({@link PutOptions#by})
 */
public record Change(long seq, Entry entry, String prev, String replaced, String session, String source,
        Instant at, long erased, Optional<Erasure> erasure, String by) implements JournalRecord.EntryRecord {

    public Change {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(at, "at");
        prev = prev == null ? "" : prev;
        replaced = replaced == null ? "" : replaced;
        session = session == null ? "" : session;
        source = source == null ? "" : source;
        erasure = erasure == null ? Optional.empty() : erasure;
        by = by == null ? "" : by;
    }

    /** A record whose writer is not known. */
    public Change(long seq, Entry entry, String prev, String replaced, String session, String source, Instant at,
            long erased, Optional<Erasure> erasure) {
        this(seq, entry, prev, replaced, session, source, at, erased, erasure, "");
    }

    /** A record of a change, neither erased nor an erasure, whose writer is not known. */
    public Change(long seq, Entry entry, String prev, String replaced, String session, String source, Instant at) {
        this(seq, entry, prev, replaced, session, source, at, 0, Optional.empty(), "");
    }

    /** This record, made by {@code writer}. */
    public Change by(String writer) {
        return new Change(seq, entry, prev, replaced, session, source, at, erased, erasure, writer);
    }

    /**
     * The erasure record of {@code scope/name} at {@code seq}: a tombstone with no content and no hash, replacing
     * {@code live} (the live entry's hash, "" when none).
     */
    public static Change erasure(long seq, Scope scope, String name, String live, Erasure erasure, Instant at) {
        Entry gone = new Entry(scope, name, "", Map.of(), "", at, true);
        return new Change(seq, gone, live, live, "", "", at, 0, Optional.of(erasure), erasure.by());
    }

    /** Whether this write was built on something other than the state it replaced. */
    public boolean forked() {
        return !prev.equals(replaced);
    }

    /** The bytes this record carries, as a page's byte bound counts them: its entry's content; 0 when erased. */
    @Override
    public long bytes() {
        return entry.size();
    }

    /** Whether this is an erasure record. */
    @Override
    public boolean isErasure() {
        return erasure.isPresent();
    }

    /** This record with its content and meta blanked by the erasure record at {@code erasureSeq}; seq and hashes kept. */
    public Change erasedBy(long erasureSeq) {
        Entry blank = new Entry(entry.scope(), entry.name(), "", Map.of(), entry.hash(), entry.updated(),
                entry.deleted());
        return new Change(seq, blank, prev, replaced, session, source, at, erasureSeq, erasure, by);
    }
}
