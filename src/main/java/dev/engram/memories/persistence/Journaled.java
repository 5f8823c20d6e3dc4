package dev.engram.memories.persistence;

import dev.engram.journal.persistence.JournalNotes;
import dev.engram.memories.Memory;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The template of a store's journaled changes: one transaction that first takes the store's next seq (the row lock
 * every write of the store takes, entries' included, so records are in commit order), then makes the change and
 * appends its journal record; a change that throws rolls back whole.
 */
final class Journaled {

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

    private final String store;
    private final PgRecalls recalls;
    private final Sql sql;

    Journaled(String store, PgRecalls recalls, Sql sql) {
        this.store = store;
        this.recalls = recalls;
        this.sql = sql;
    }

    /**
     * Runs {@code step} after taking the store's next seq, then appends the record of {@code kind} about {@code key}
     * that it made, and tells the store's followers. A step that changed nothing (null) is rolled back: no seq taken,
     * no record written, empty.
     */
    Optional<Changed> change(String kind, String key, Step step) {
        long[] seq = {0};
        Optional<Changed> done = sql.transaction(tx -> {
            seq[0] = nextSeq(tx);
            Changed changed = step.apply(tx);
            if (changed == null) {
                tx.rollbackOnly();
                return Optional.empty();
            }
            append(tx, seq[0], kind, key, changed.record());
            return Optional.of(changed);
        });
        done.ifPresent(c -> recalls.appended(store, seq[0]));
        return done;
    }

    /** As {@link #change}, for a step that always changes something: the memory it answered. */
    Memory changed(String kind, String key, Step step) {
        return change(kind, key, step).orElseThrow().memory();
    }

    long nextSeq(Sql.Tx tx) throws SQLException {
        return JournalNotes.nextSeq(tx.connection(), store, recalls.defaultMaxEntryBytes());
    }

    void append(Sql.Tx tx, long seq, String kind, String key, String body) throws SQLException {
        JournalNotes.append(tx.connection(), store, seq, kind, key, body, recalls.clock().instant());
    }

    /** Takes the store's row lock, as a seq does, without taking a seq: a store with no row has no memories. */
    void lockStore(Sql.Tx tx) throws SQLException {
        tx.first("select 1 from store where id = ? for update", r -> 1, store);
    }
}
