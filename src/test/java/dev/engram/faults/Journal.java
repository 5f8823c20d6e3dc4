package dev.engram.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What PostgreSQL holds for a store after a fault run, read with plain JDBC, and the checks every run makes. */
final class Journal {

    /** One journal row. */
    record Row(long seq, String scope, String name, String content, String hash, boolean deleted, String prev,
            String replaced) {
    }

    /** One live entry. */
    record Live(String content, String hash) {
    }

    final List<Row> rows = new ArrayList<>();
    final Map<String, Live> live = new HashMap<>();
    long storeSeq;

    static Journal read(dev.engram.ops.EmbeddedPostgres.Server pg, String store) throws Exception {
        Journal j = new Journal();
        try (Connection c = DriverManager.getConnection(pg.url(), "postgres", pg.password())) {
            try (PreparedStatement s = c.prepareStatement("select seq, scope, name, content, hash, deleted, prev, "
                    + "replaced from journal where store_id = ? order by seq")) {
                s.setString(1, store);
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        j.rows.add(new Row(r.getLong(1), r.getString(2), r.getString(3), r.getString(4),
                                r.getString(5), r.getBoolean(6), r.getString(7), r.getString(8)));
                    }
                }
            }
            try (PreparedStatement s = c.prepareStatement("select scope, name, content, hash from entry where "
                    + "store_id = ?")) {
                s.setString(1, store);
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        j.live.put(r.getString(1) + "/" + r.getString(2), new Live(r.getString(3), r.getString(4)));
                    }
                }
            }
            try (PreparedStatement s = c.prepareStatement("select seq from store where id = ?")) {
                s.setString(1, store);
                try (ResultSet r = s.executeQuery()) {
                    j.storeSeq = r.next() ? r.getLong(1) : 0;
                }
            }
        }
        return j;
    }

    /** Seqs run 1..N with no gap, and N is the store's own counter. */
    void assertGapless(String store) {
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(i + 1, rows.get(i).seq(), store + ": seq " + (i + 1) + " is missing");
        }
        assertEquals(rows.size(), storeSeq, store + ": the store's seq is its journal's length");
    }

    /** Replaying the journal in seq order gives exactly the live entries; each record replaced the one before. */
    void assertReplayReproducesTheEntries(String store) {
        Map<String, Live> replay = new HashMap<>();
        for (Row r : rows) {
            String key = r.scope() + "/" + r.name();
            Live before = replay.get(key);
            assertEquals(before == null ? "" : before.hash(), r.replaced(), store + ": seq " + r.seq()
                    + " replaced what the journal left before it");
            if (r.deleted()) {
                replay.remove(key);
            } else {
                replay.put(key, new Live(r.content(), r.hash()));
            }
        }
        assertEquals(replay, live, store + ": replaying the journal reproduces the live entries");
    }

    Row at(long seq) {
        return rows.get((int) seq - 1);
    }
}
