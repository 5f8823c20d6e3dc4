package dev.engram.entries;

import java.time.Instant;
import java.util.Objects;

/**
 * A store as a listing shows it: what it holds of each tier, counted, and the bytes of its live entries' content.
 *
 * @param records the records of its journal (its last seq: the journal is gapless)
 * @param entries its live entries
 * @param entryBytes the UTF-8 bytes of its live entries' content
 * @param memories its memories, archived ones included
 * @param documents its path-addressed documents (Claude's memory tool, the Memory Stores API)
 * @param contexts its contexts
 */
public record StoreSummary(String id, long records, long entries, long entryBytes, long memories, long documents,
        long contexts, int maxEntryBytes, Instant createdAt) {

    public StoreSummary {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
