package dev.engram.store.pg;

import dev.engram.memory.Change;
import dev.engram.memory.Entry;
import dev.engram.memory.Scope;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.panache.common.Page;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import io.agroal.api.AgroalDataSource;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The store's reads, through the Panache entities; each is one query outside any transaction. Rows are written
 * by the SQL write functions, never through Hibernate, so no read may answer from the session's cache of rows an
 * earlier read loaded: each read clears the session when it is done (see {@link #fresh}).
 */
@ApplicationScoped
@ActivateRequestContext
class PgReads {

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

    /**
     * The live entries of {@code scopes} (every scope when empty), by scope then name, in one query. This is the
     * render's read, of hundreds of rows on every turn, so it maps rows straight to entries over JDBC: loading them
     * as entities into a session costs several times what PostgreSQL takes to answer.
     */
    List<Entry> listScopes(String store, List<Scope> scopes) {
        String sql = "select scope, name, content, meta::text, hash, updated from entry where store_id = ?"
                + (scopes.isEmpty() ? "" : " and scope = any(?)") + " order by scope, name";
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, store);
            if (!scopes.isEmpty()) {
                s.setArray(2, c.createArrayOf("text", scopes.stream().map(Scope::value).toArray()));
            }
            return entries(s);
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    List<Change> journal(String store, long after, int limit) {
        return fresh(() -> JournalRow.<JournalRow>find("storeId = ?1 and seq > ?2 order by seq", store, after)
                .page(Page.ofSize(limit)).list().stream().map(JournalRow::toChange).toList());
    }

    /**
     * The live entries of {@code scopes} (every scope when empty) whose search text holds every one of
     * {@code words}, by scope in the order given, then name; over JDBC, as {@link #listScopes} is.
     */
    List<Entry> search(String store, List<Scope> scopes, List<String> words, int limit) {
        List<String> distinct = scopes.stream().map(Scope::value).distinct().toList();
        StringBuilder sql = new StringBuilder("select scope, name, content, meta::text, hash, updated from entry "
                + "where store_id = ?");
        if (!distinct.isEmpty()) {
            sql.append(" and scope = any(?)");
        }
        for (int i = 0; i < words.size(); i++) {
            sql.append(" and search_text like ? escape '\\'");
        }
        sql.append(distinct.isEmpty() ? " order by scope, name" : " order by array_position(?, scope), name");
        if (limit > 0) {
            sql.append(" limit ").append(limit);
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql.toString())) {
            int p = 1;
            s.setString(p++, store);
            java.sql.Array order = distinct.isEmpty() ? null : c.createArrayOf("text", distinct.toArray());
            if (order != null) {
                s.setArray(p++, order);
            }
            for (String word : words) {
                s.setString(p++, "%" + escapeLike(word) + "%");
            }
            if (order != null) {
                s.setArray(p, order);
            }
            return entries(s);
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    private static List<Entry> entries(PreparedStatement s) throws SQLException {
        List<Entry> entries = new ArrayList<>();
        try (ResultSet r = s.executeQuery()) {
            while (r.next()) {
                entries.add(new Entry(new Scope(r.getString(1)), r.getString(2), r.getString(3),
                        MetaJson.parse(r.getString(4)), r.getString(5), r.getObject(6, OffsetDateTime.class).toInstant(),
                        false));
            }
        }
        return entries;
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

    private static String escapeLike(String word) {
        return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
