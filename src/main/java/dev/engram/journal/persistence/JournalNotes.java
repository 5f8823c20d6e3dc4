package dev.engram.journal.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The two statements every write of a memory or a context starts and ends its transaction with: taking the store's
 * next seq (its row lock, held to the commit; a store written first this way is created with the default bound) and
 * appending a journal record that is a note of a kind, not an entry's change.
 */
public final class JournalNotes {

    private JournalNotes() {
    }

    /** The store's next seq, taking its row lock; the store is created with {@code defaultMaxEntryBytes} if new. */
    public static long nextSeq(Connection c, String store, int defaultMaxEntryBytes) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("insert into store as s (id, seq, max_entry_bytes) "
                + "values (?, 1, ?) on conflict (id) do update set seq = s.seq + 1 returning s.seq")) {
            s.setString(1, store);
            s.setInt(2, defaultMaxEntryBytes);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    /** Appends the record {@code body} (JSON) of {@code kind} about {@code key} at {@code seq}, written {@code at}. */
    public static void append(Connection c, String store, long seq, String kind, String key, String body, Instant at)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement("insert into journal (store_id, seq, scope, name, content, "
                + "hash, updated, at, kind, record) values (?, ?, '', ?, '', '', ?, ?, ?, ?::jsonb)")) {
            OffsetDateTime time = OffsetDateTime.ofInstant(at, ZoneOffset.UTC);
            s.setString(1, store);
            s.setLong(2, seq);
            s.setString(3, key);
            s.setObject(4, time);
            s.setObject(5, time);
            s.setString(6, kind);
            s.setString(7, body);
            s.executeUpdate();
        }
    }
}
