package dev.engram.store.pg;

import dev.engram.memory.Entry;
import dev.engram.memory.Scope;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The reads that return many entries, the render's on every turn and the search's, over plain JDBC: rows map
 * straight to entries, with no entity, session or request context in between, which cost several times what
 * PostgreSQL takes to answer.
 */
@ApplicationScoped
class PgEntryQueries {

    @Inject
    AgroalDataSource dataSource;

    /** The live entries of {@code scopes} (every scope when empty), by scope then name, in one query. */
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

    private static String escapeLike(String word) {
        return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
