package dev.engram.memories.persistence;

import dev.engram.kernel.NotFound;
import dev.engram.memories.Memory;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.Revision;
import dev.engram.persistence.Sql;
import java.sql.SQLException;
import java.util.function.UnaryOperator;

/**
 * The changes of one memory after its save (revision, supersession, archiving, deletion) and of all of them (a clear),
 * each journaled ({@link OneStore#change}); and an access, counted apart without the store's lock.
 */
interface MemoryChanges extends MemoryReads {

    @Override
    default void delete(String id) {
        change("memory.deleted", id, tx -> {
            Memory gone = held(tx, id);
            tx.update("delete from memory where store_id = ? and id = ?", store(), id);
            tx.update("update store set memories = memories - 1 where id = ?", store());
            return new Changed(gone, MemoryRecords.JSON.createObjectNode().put("id", id).toString());
        });
    }

    /** Deletes every memory of the store; 0, writing nothing, when it had none. */
    @Override
    default long clear() {
        long[] n = {0};
        change("memories.cleared", "", tx -> {
            n[0] = tx.update("delete from memory where store_id = ?", store());
            if (n[0] == 0) {
                return null;
            }
            tx.update("update store set memories = 0 where id = ?", store());
            return new Changed(null, MemoryRecords.JSON.createObjectNode().put("count", n[0]).toString());
        });
        return n[0];
    }

    @Override
    default Memory access(String id) {
        return sql().connected(tx -> {
            long counted = tx.update("insert into memory_access as a (store_id, id, count, last_accessed) select "
                    + "m.store_id, m.id, 1, ? from memory m where m.store_id = ? and m.id = ? on conflict (store_id, "
                    + "id) do update set count = a.count + 1, last_accessed = excluded.last_accessed",
                    recalls().clock().instant(), store(), id);
            if (counted == 0) {
                throw NotFound.memory(id);
            }
            return held(tx, id);
        });
    }

    @Override
    default Memory revise(String id, String by, String summary) {
        return rewrite("memory.revised", id, m -> m.revised(new Revision(recalls().clock().instant(), by, summary)));
    }

    @Override
    default Memory supersede(String id, String by) {
        return changed("memory.superseded", id, tx -> {
            Memory m = held(tx, id);
            if (!by.isEmpty() && read(tx, by).isEmpty()) {
                throw MemoryRules.supersededByNothing(id, by);
            }
            return Changed.of(rewrite(tx, m.superseded(by, recalls().clock().instant())));
        });
    }

    @Override
    default Memory archive(String id, String reason) {
        return rewrite("memory.archived", id, m -> m.archive(reason, recalls().clock().instant()));
    }

    @Override
    default Memory unarchive(String id) {
        return rewrite("memory.unarchived", id, m -> m.unarchive(recalls().clock().instant()));
    }

    /** Reads the memory, changes it with {@code how} and writes it back, journaled as {@code kind}. */
    private Memory rewrite(String kind, String id, UnaryOperator<Memory> how) {
        return changed(kind, id, tx -> Changed.of(rewrite(tx, how.apply(held(tx, id)))));
    }

    /** Writes {@code m}'s validity, archiving, revisions and update time over its row; answers it as stored. */
    default Memory rewrite(Sql.Tx tx, Memory m) throws SQLException {
        tx.update("update memory set valid_to = ?, superseded_by = ?, archived = ?, archived_at = ?, "
                + "archive_reason = ?, revisions = ?::jsonb, updated_at = ? where store_id = ? and id = ?",
                m.validTo(), m.supersededBy(), m.archived(), m.archivedAt(), m.archiveReason(),
                MemoryRecords.revisionsJson(m.revisions()), m.updatedAt(), store(), m.id());
        return read(tx, m.id()).orElseThrow();
    }
}
