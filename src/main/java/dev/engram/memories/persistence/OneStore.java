package dev.engram.memories.persistence;

import dev.engram.journal.persistence.JournalNotes;
import dev.engram.kernel.NotFound;
import dev.engram.memories.Memory;
import dev.engram.persistence.Sql;
import java.sql.SQLException;
import java.util.Optional;

/**
 * What every part of one store's memories works with (the store, the service's settings, its {@link Sql}), and the
 * template of its journaled changes: one transaction that first takes the store's next seq (the row lock every write
 * of the store takes, entries' included, so records are in commit order), then makes the change and appends its
 * journal record; a change that throws rolls back whole.
 */
interface OneStore {

    /** The memory and its access count, for a {@code where} on {@code m}. */
    String FROM = " from memory m left join memory_access a on a.store_id = m.store_id and a.id = m.id ";
    String SELECT = "select " + MemoryRecords.COLUMNS + FROM;

    String store();

    PgRecalls recalls();

    Sql sql();

    /** What a change did: the memory as it is after it (or was before a deletion, or none), and its record. */
    record Changed(Memory memory, String record) {

        static Changed of(Memory m) {
            return new Changed(m, MemoryRecords.json(m));
        }
    }

    /** A change made inside {@link #change}; null when it found nothing to change. */
    @FunctionalInterface
    interface Step {
        Changed apply(Sql.Tx tx) throws SQLException;
    }

    /**
     * Runs {@code step} after taking the store's next seq, then appends the record of {@code kind} about {@code key}
     * that it made, and tells the store's followers. A step that changed nothing (null) is rolled back: no seq taken,
     * no record written, empty.
     */
    default Optional<Changed> change(String kind, String key, Step step) {
        long[] seq = {0};
        Optional<Changed> done = sql().transaction(tx -> {
            seq[0] = nextSeq(tx);
            Changed changed = step.apply(tx);
            if (changed == null) {
                tx.rollbackOnly();
                return Optional.empty();
            }
            append(tx, seq[0], kind, key, changed.record());
            return Optional.of(changed);
        });
        done.ifPresent(c -> recalls().appended(store(), seq[0]));
        return done;
    }

    /** As {@link #change}, for a step that always changes something: the memory it answered. */
    default Memory changed(String kind, String key, Step step) {
        return change(kind, key, step).orElseThrow().memory();
    }

    default long nextSeq(Sql.Tx tx) throws SQLException {
        return JournalNotes.nextSeq(tx, store(), recalls().defaultMaxEntryBytes());
    }

    default void append(Sql.Tx tx, long seq, String kind, String key, String body) throws SQLException {
        JournalNotes.append(tx, store(), seq, kind, key, body, recalls().clock().instant());
    }

    /** Takes the store's row lock, as a seq does, without taking a seq: a store with no row has no memories. */
    default void lockStore(Sql.Tx tx) throws SQLException {
        tx.first("select 1 from engram_store_lock(?, null)", r -> 1, store());
    }

    default Optional<Memory> read(Sql.Tx tx, String id) throws SQLException {
        return tx.first(SELECT + "where m.store_id = ? and m.id = ?", MemoryRecords::read, store(), id);
    }

    /** The memory {@code id} on {@code tx}, or {@link NotFound}. */
    default Memory held(Sql.Tx tx, String id) throws SQLException {
        return read(tx, id).orElseThrow(() -> NotFound.memory(id));
    }
}
