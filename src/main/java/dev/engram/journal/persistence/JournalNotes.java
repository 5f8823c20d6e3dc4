package dev.engram.journal.persistence;

import dev.engram.persistence.Sql;
import java.sql.SQLException;
import java.time.Instant;

/**
 * The two calls every write of a memory or a context starts and ends its transaction with, through the journal's
 * SQL primitives (migration {@code R__journal.sql}): taking the store's lock, held to the commit (a store written
 * first this way is created with the default bound), and appending a journal record that is a note of a kind, not
 * an entry's change, which takes the store's next seq.
 */
public final class JournalNotes {

    /** Appends a note, by {@link JournalWriter#current()}; the other members of the primitive keep their defaults. */
    public static final String APPEND = "select engram_journal_append(p_store => ?, p_kind => ?, p_name => ?, "
            + "p_at => ?, p_record => ?::jsonb, p_by => ?)";

    private JournalNotes() {
    }

    /**
     * Takes the store's lock and answers the seq the next record appended under it takes; the store is created with
     * {@code defaultMaxEntryBytes} if new.
     */
    public static long nextSeq(Sql.Tx tx, String store, int defaultMaxEntryBytes) throws SQLException {
        return tx.one("select l.seq + 1 from engram_store_lock(?, ?) l", r -> r.getLong(1), store,
                defaultMaxEntryBytes);
    }

    /**
     * Appends a note and answers its seq, bumping the store's seq here (which takes the store's lock if the
     * transaction does not hold it yet).
     */
    public static long append(Sql.Tx tx, String store, String kind, String key, String body, Instant at)
            throws SQLException {
        return tx.one(APPEND, r -> r.getLong(1), store, kind, key, at, body, JournalWriter.current());
    }

    /**
     * Appends the record {@code body} (JSON) of {@code kind} about {@code key}, written {@code at}, as the record
     * {@code seq} that {@link #nextSeq} announced under the lock this transaction holds.
     *
     * @throws IllegalStateException if the record took another seq: something appended to the store between
     */
    public static void append(Sql.Tx tx, String store, long seq, String kind, String key, String body, Instant at)
            throws SQLException {
        long took = append(tx, store, kind, key, body, at);
        if (took != seq) {
            throw new IllegalStateException("The journal record of " + kind + " took seq " + took + " where " + seq
                    + " was announced; append each record after its own nextSeq.");
        }
    }
}
