package dev.engram.memories.persistence;

import dev.engram.memories.Memory;
import dev.engram.persistence.Sql;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Locale;

/**
 * One call of {@code engram_memory_save} (migration V10): the store and its bounds, the memory to write, the creation
 * time of the row it replaces (null for none: the call refuses with EG409 when the row changed since it was read), the
 * journal record, the time of the write and its writer (the request's caller). {@link #run} binds them, in the function's order, in one place.
 */
record SaveCall(String store, int maxEntryBytes, int maxMemories, Memory memory, Instant replacedCreatedAt,
        String record, Instant now) {

    private static final String SQL = "select engram_memory_save(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            + "?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?::jsonb, ?, ?)";

    /** Makes the call on {@code tx} and answers the seq of the journal record it appended. */
    long run(Sql.Tx tx) throws SQLException {
        Memory m = memory;
        return tx.one(SQL, r -> r.getLong(1), store, maxEntryBytes, maxMemories, m.id(), m.bank().bankId(),
                m.bank().type(), m.bank().id(), m.type(), m.content(), m.importance(), m.confidence(), texts(m.tags()),
                texts(m.keywords()), texts(m.evidence()), m.source(), m.validFrom(), m.validTo(), m.supersededBy(),
                m.conflicting(), m.archived(), m.archivedAt(), m.archiveReason(),
                MemoryRecords.revisionsJson(m.revisions()), m.createdAt(), m.updatedAt(),
                m.haystack().toLowerCase(Locale.ROOT), replacedCreatedAt, record, now,
                dev.engram.journal.persistence.JournalWriter.current());
    }

    private static String[] texts(java.util.List<String> values) {
        return values.toArray(String[]::new);
    }
}
