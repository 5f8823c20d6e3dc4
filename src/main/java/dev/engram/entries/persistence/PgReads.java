package dev.engram.entries.persistence;

import dev.engram.journal.persistence.JournalColumns;
import dev.engram.persistence.StoreUnavailable;
import dev.engram.entries.Change;
import dev.engram.entries.Entry;
import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Scope;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The store's point reads and journal pages, each one JDBC query outside any transaction. The bulk reads of the
 * render and search are {@link PgEntryQueries}. Rows are written by the SQL write functions; nothing caches a row.
 */
@ApplicationScoped
class PgReads {

    private static final String ENTRY = "select scope, name, content, meta::text, hash, updated from entry "
            + "where store_id = ? and scope = ?";
    private static final String JOURNAL = "select " + JournalColumns.select("j.") + " from journal j "
            + "where j.store_id = ? and j.seq > ? order by j.seq limit ?";

    private static final String BOUNDED_JOURNAL = "select " + JournalColumns.select("j.") + " from (select j.*, "
            + "coalesce(sum(case when j.kind = '" + JournalColumns.ENTRY + "' "
            + "then coalesce(octet_length(j.content), 0) else coalesce(octet_length(j.record::text), 0) end) over (order by j.seq rows between unbounded "
            + "preceding and 1 preceding), 0) as bytes_before, row_number() over (order by j.seq) as position "
            + "from journal j where j.store_id = ? and j.seq > ? order by j.seq limit ?) j "
            + "where j.bytes_before <= ? or j.position <= 2 order by j.seq";

    @Inject
    AgroalDataSource dataSource;

    /** A row of {@code store}: its journal's last seq, its content bound and when it was created. */
    record StoreRow(long seq, int maxEntryBytes, Instant createdAt) {
    }

    /** A query's rows, each read by {@code row}. */
    @FunctionalInterface
    private interface Row<T> {
        T read(ResultSet r) throws SQLException;
    }

    private <T> List<T> query(String sql, Row<T> row, Object... args) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            List<T> rows = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    rows.add(row.read(r));
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    Optional<Entry> get(String store, Scope scope, String name) {
        return query(ENTRY + " and name = ?", r -> PgEntryQueries.entry(r, 1), store, scope.value(), name).stream()
                .findFirst();
    }

    List<Entry> list(String store, Scope scope) {
        return query(ENTRY + " order by name", r -> PgEntryQueries.entry(r, 1), store, scope.value());
    }

    /**
     * Up to {@code limit} records after {@code after}, in seq order, none of them starting past {@code maxBytes} of
     * the records before it ({@link JournalRecord#bytes}, summed in PostgreSQL): the byte-bounded page and the record
     * after it, never the rest.
     */
    List<JournalRecord> journal(String store, long after, int limit, long maxBytes) {
        return query(BOUNDED_JOURNAL, r -> JournalColumns.read(r, 1), store, after, limit, maxBytes);
    }

    /** Up to {@code limit} records after {@code after}, in seq order. */
    List<JournalRecord> journal(String store, long after, int limit) {
        return query(JOURNAL, r -> JournalColumns.read(r, 1), store, after, limit);
    }

    Optional<StoreRow> store(String id) {
        return query("select seq, max_entry_bytes, created_at from store where id = ?",
                r -> new StoreRow(r.getLong(1), r.getInt(2), r.getObject(3, OffsetDateTime.class).toInstant()), id)
                .stream().findFirst();
    }

    /** Live entries by scope. */
    Map<Scope, Integer> counts(String store) {
        Map<Scope, Integer> counts = new HashMap<>();
        query("select scope, count(*) from entry where store_id = ? group by scope",
                r -> counts.put(new Scope(r.getString(1)), r.getInt(2)), store);
        return counts;
    }
}
