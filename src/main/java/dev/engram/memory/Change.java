package dev.engram.memory;

import java.time.Instant;
import java.util.Objects;

/**
 * One journal record: the entry as it was after the change, what it replaced, and who made it.
 *
 * @param seq the record's position in its store's journal, gapless and in commit order; the cursor
 *     {@link Store#journal} takes
 * @param entry the entry after the change; a tombstone carries the last content with {@code deleted} set
 * @param prev the content hash the write was built on: the one the caller named with {@link PutOptions#basedOn},
 *     else the one the store held (which a precondition, {@link PutOptions#ifVersion}, has pinned); "" for a create
 * @param replaced the hash the store held when the change landed, "" for a create; records of one entry chain
 *     through it
 * @param session the session that wrote the change, or ""
 * @param source where a change the store did not write came from, "" for a write through the store
 * @param at when the change was made; it never orders records, {@code seq} does
 */
public record Change(long seq, Entry entry, String prev, String replaced, String session, String source,
        Instant at) {

    public Change {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(at, "at");
        prev = prev == null ? "" : prev;
        replaced = replaced == null ? "" : replaced;
        session = session == null ? "" : session;
        source = source == null ? "" : source;
    }

    /** Whether this write was built on something other than the state it replaced. */
    public boolean forked() {
        return !prev.equals(replaced);
    }
}
