package dev.engram.store.pg;

import dev.engram.memory.Change;
import dev.engram.memory.Entry;
import dev.engram.memory.Scope;
import io.agroal.api.AgroalDataSource;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The store's point reads through the Panache entities, and journal pages over JDBC; each is one query outside any
 * transaction. The bulk reads of the render and search are {@link PgEntryQueries}. Rows are written
 * by the SQL write functions, never through Hibernate, so no read may answer from the session's cache of rows an
 * earlier read loaded: each read clears the session when it is done (see {@link #fresh}).
 */
@ApplicationScoped
@ActivateRequestContext
class PgReads {

    private static final String JOURNAL = "select " + JournalColumns.select("j.") + " from journal j "
            + "where j.store_id = ? and j.seq > ? order by j.seq limit ?";

    @Inject
    AgroalDataSource dataSource;

    private static <T> T fresh(Supplier<T> read) {
        try {
            return read.get();
        } finally {
            Panache.getEntityManager().clear();
        }
    }

    Optional<Entry> get(String store, Scope scope, String name) {
        return fresh(() -> EntryRow.<EntryRow>find("storeId = ?1 and scope = ?2 and name = ?3", store,
                scope.value(), name).firstResultOptional().map(EntryRow::toEntry));
    }

    List<Entry> list(String store, Scope scope) {
        return fresh(() -> EntryRow.<EntryRow>list("storeId = ?1 and scope = ?2 order by name", store,
                scope.value()).stream().map(EntryRow::toEntry).toList());
    }

    /** Up to {@code limit} records after {@code after}, in seq order: one query over JDBC. */
    List<Change> journal(String store, long after, int limit) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(JOURNAL)) {
            s.setString(1, store);
            s.setLong(2, after);
            s.setInt(3, limit);
            List<Change> records = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    records.add(JournalColumns.read(r, 1));
                }
            }
            return records;
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    Optional<StoreRow> store(String id) {
        return fresh(() -> StoreRow.<StoreRow>findByIdOptional(id));
    }

    /** Live entries by scope. */
    List<Object[]> counts(String store) {
        return Panache.getEntityManager()
                .createQuery("select scope, count(*) from EntryRow where storeId = ?1 group by scope", Object[].class)
                .setParameter(1, store).getResultList();
    }
}
