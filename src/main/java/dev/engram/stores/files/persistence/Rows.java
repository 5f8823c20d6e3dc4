package dev.engram.stores.files.persistence;

import dev.engram.entries.Change;
import dev.engram.entries.Entry;
import dev.engram.entries.Erasure;
import dev.engram.journal.persistence.MetaJson;
import dev.engram.kernel.Scope;
import dev.engram.persistence.Sql;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Optional;

/** Reading a store's tables a page of rows at a time, in one transaction, so an export holds no table whole. */
final class Rows {

    /** The rows fetched from PostgreSQL at a time. */
    static final int FETCH = 500;

    static final String JOURNAL = "select seq, kind, scope, name, content, meta::text, hash, updated, deleted, prev, "
            + "replaced, session, source, at, erased_by, erasure ->> 'by', erasure ->> 'reason', record::text, "
            + "written_by from journal where store_id = ? order by seq";
    static final String ENTRIES = "select scope, name, content, meta::text, hash, updated from entry "
            + "where store_id = ? order by scope, name";

    /** Handles one row; may throw what writing it throws. */
    @FunctionalInterface
    interface Each {
        void row(ResultSet r) throws Exception;
    }

    private Rows() {
    }

    /** Calls {@code each} on every row of {@code sql}, {@value #FETCH} rows fetched at a time. */
    static void each(Sql.Tx tx, String sql, Each each, Object... args) throws SQLException {
        try (PreparedStatement s = tx.connection().prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            s.setFetchSize(FETCH);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    each.row(r);
                }
            } catch (SQLException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new ExportFailed(e);
            }
        }
    }

    /** A live entry of {@link #ENTRIES}. */
    static Entry entry(ResultSet r) throws SQLException {
        return new Entry(Scope.of(r.getString(1)), r.getString(2), r.getString(3), MetaJson.parse(r.getString(4)),
                r.getString(5), instant(r, 6), false);
    }

    /** The entry's change of a {@link #JOURNAL} row whose kind is {@code entry}. */
    static Change change(ResultSet r) throws SQLException {
        Entry e = new Entry(Scope.of(r.getString(3)), r.getString(4), r.getString(5), MetaJson.parse(r.getString(6)),
                r.getString(7), instant(r, 8), r.getBoolean(9));
        long erased = r.getLong(15);
        String by = r.getString(16);
        Optional<Erasure> erasure = by == null ? Optional.empty()
                : Optional.of(new Erasure(by, r.getString(17) == null ? "" : r.getString(17)));
        return new Change(r.getLong(1), e, r.getString(10), r.getString(11), r.getString(12), r.getString(13),
                instant(r, 14), erased, erasure, r.getString(19));
    }

    static Instant instant(ResultSet r, int column) throws SQLException {
        OffsetDateTime t = r.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    /** A failure of writing the archive while its rows were read. */
    static final class ExportFailed extends RuntimeException {
        ExportFailed(Exception cause) {
            super(cause);
        }
    }
}
