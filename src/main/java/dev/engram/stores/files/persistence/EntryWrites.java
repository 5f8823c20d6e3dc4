package dev.engram.stores.files.persistence;

import dev.engram.entries.Change;
import dev.engram.entries.Entry;
import dev.engram.entries.Match;
import dev.engram.journal.persistence.MetaJson;
import dev.engram.persistence.Sql;
import dev.engram.stores.files.ImportPlan;
import java.sql.SQLException;

/**
 * The steps of an {@link ImportPlan} written in the import's transaction, which holds the store's lock: each record
 * through the journal's one primitive ({@code engram_journal_append}), which takes the next seq; each live row
 * written as an entry's write function writes it.
 */
final class EntryWrites {

    private static final String APPEND = "select engram_journal_append(p_store => ?, p_kind => 'entry', p_name => ?, "
            + "p_at => ?, p_scope => ?, p_content => ?, p_meta => ?::jsonb, p_hash => ?, p_updated => ?, "
            + "p_deleted => ?, p_prev => ?, p_replaced => ?, p_session => ?)";
    private static final String UPSERT = "insert into entry as e (store_id, scope, name, content, meta, hash, updated, "
            + "search_text) values (?, ?, ?, ?, ?::jsonb, ?, ?, ?) on conflict (store_id, scope, name) do update set "
            + "content = excluded.content, meta = excluded.meta, hash = excluded.hash, updated = excluded.updated, "
            + "search_text = excluded.search_text";

    private EntryWrites() {
    }

    /** Writes {@code step}; answers the seq of the record it appended, 0 for none. */
    static long write(Sql.Tx tx, String store, ImportPlan.Step step) throws SQLException {
        if (step instanceof ImportPlan.Live l) {
            live(tx, store, l.entry());
            return 0;
        }
        Change c = step instanceof ImportPlan.Append a ? a.record() : ((ImportPlan.Write) step).record();
        long seq = append(tx, store, c);
        if (step instanceof ImportPlan.Write) {
            if (c.entry().deleted()) {
                tx.update("delete from entry where store_id = ? and scope = ? and name = ?", store,
                        c.entry().scope().value(), c.entry().name());
            } else {
                live(tx, store, c.entry());
            }
        }
        return seq;
    }

    /**
     * Appends {@code c} as a record of its own, with its session, times and hashes; its {@code source}, which the
     * primitive does not take, is set on the row just appended, in the same transaction, before anyone reads it.
     */
    private static long append(Sql.Tx tx, String store, Change c) throws SQLException {
        Entry e = c.entry();
        long seq = tx.one(APPEND, r -> r.getLong(1), store, e.name(), c.at(), e.scope().value(), e.content(),
                MetaJson.write(e.meta()), e.hash(), e.updated(), e.deleted(), c.prev(), c.replaced(), c.session());
        if (!c.source().isEmpty()) {
            tx.update("update journal set source = ? where store_id = ? and seq = ?", c.source(), store, seq);
        }
        return seq;
    }

    private static void live(Sql.Tx tx, String store, Entry e) throws SQLException {
        tx.update(UPSERT, store, e.scope().value(), e.name(), e.content(), MetaJson.write(e.meta()), e.hash(),
                e.updated(), Match.text(e));
    }
}
