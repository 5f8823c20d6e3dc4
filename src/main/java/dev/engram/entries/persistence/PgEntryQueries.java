package dev.engram.entries.persistence;

import dev.engram.journal.persistence.MetaJson;
import dev.engram.entries.EntriesStamp;
import dev.engram.entries.Entry;
import dev.engram.entries.Listing;
import dev.engram.kernel.Paged;
import dev.engram.kernel.Scope;
import dev.engram.entries.SearchOrder;
import dev.engram.entries.StoreSummary;
import dev.engram.memories.rank.Bm25;
import dev.engram.persistence.Sql;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The reads only SQL says, over plain JDBC: the render's listing on every turn (the entries and the store's bound of
 * one moment, in one statement), the trigram search with its plan pinned in its own transaction, and the byte-bounded
 * list page. Rows map straight to entries, with no session in between; every other read is a Panache query
 * ({@link PgReads}).
 */
@ApplicationScoped
public class PgEntryQueries {

    @Inject
    AgroalDataSource dataSource;

    /**
     * The live entry {@code scope/name} of {@code store}: an agent's most frequent read, one prepared statement on
     * the primary key (docs/adr/0010-the-point-read-over-jdbc.md).
     */
    Optional<Entry> get(String store, Scope scope, String name) {
        return sql().first("select scope, name, content, meta::text, hash, updated from entry "
                + "where store_id = ? and scope = ? and name = ?", r -> entry(r, 1), store, scope.value(), name);
    }

    /**
     * Up to {@code limit} live entries of {@code scope} named after {@code after}, by name, none of them starting past
     * {@code maxBytes} of content of the entries before it (summed in PostgreSQL): the byte-bounded page and the entry after it, never the rest.
     */
    List<Entry> listPage(String store, Scope scope, String after, int limit, long maxBytes) {
        String sql = "select scope, name, content, meta::text, hash, updated from (select e.*, "
                + "coalesce(sum(octet_length(e.content)) over (order by e.name rows between unbounded preceding "
                + "and 1 preceding), 0) as bytes_before, row_number() over (order by e.name) as position "
                + "from entry e where e.store_id = ? and e.scope = ? and e.name > ? order by e.name limit ?) e "
                + "where e.bytes_before <= ? or e.position <= 2 order by e.name";
        return sql().list(sql, r -> entry(r, 1), store, scope.value(), after, limit, maxBytes);
    }

    /**
     * The live entries of {@code scopes} (every scope when empty), by scope then name, and the store's bound and
     * entries version, in one query and so as of one moment (a second reads the store's row alone when there are no
     * entries); a store that does not exist lists nothing, with {@code defaultLimit}.
     */
    Listing listing(String store, List<Scope> scopes, int defaultLimit) {
        boolean scoped = !scopes.isEmpty();
        Object[] args = scoped
                ? new Object[] {store, store, store, scopes.stream().map(Scope::value).toArray(String[]::new)}
                : new Object[] {store, store, store};
        return sql().connected(tx -> {
            Map<Scope, List<Entry>> lists = new LinkedHashMap<>();
            for (Scope scope : scopes) {
                lists.put(scope, new ArrayList<>());
            }
            List<EntriesStamp> stamps = tx.list(listingSql(scoped), r -> {
                Entry e = entry(r, 3);
                lists.computeIfAbsent(e.scope(), k -> new ArrayList<>()).add(e);
                return new EntriesStamp(r.getLong(2), r.getInt(1));
            }, args);
            Optional<EntriesStamp> stamp = !stamps.isEmpty() ? Optional.of(stamps.get(stamps.size() - 1))
                    : tx.first(STAMP, PgEntryQueries::stamp, store);
            return new Listing(lists, stamp.map(EntriesStamp::maxEntryBytes).orElse(defaultLimit), stamp.isPresent(),
                    stamp);
        });
    }

    /**
     * The stores whose IDs match one of the LIKE patterns {@code like}, by ID after {@code after}, at most
     * {@code limit}, with their counts: those the store's row keeps, and its contexts and its entries' bytes counted
     * from its rows (one index range each).
     */
    List<StoreSummary> stores(String[] like, String after, int limit) {
        return sql().list("select s.id, s.seq, s.entries, (select coalesce(sum(octet_length(e.content)), 0) from "
                + "entry e where e.store_id = s.id), s.memories, s.documents, (select count(*) from context c "
                + "where c.store_id = s.id), s.max_entry_bytes, s.created_at from store s where s.id like any(?) "
                + "and s.id > ? order by s.id limit ?", r -> new StoreSummary(r.getString(1), r.getLong(2),
                r.getLong(3), r.getLong(4), r.getLong(5), r.getLong(6), r.getLong(7), r.getInt(8),
                r.getObject(9, OffsetDateTime.class).toInstant()), like, after, limit);
    }

    /** The store's {@link EntriesStamp}, one point read of its row; empty when it does not exist. */
    Optional<EntriesStamp> stamp(String store) {
        return sql().first(STAMP, PgEntryQueries::stamp, store);
    }

    private static final String STAMP = "select max_entry_bytes, entries_version from store where id = ?";

    private static EntriesStamp stamp(ResultSet r) throws SQLException {
        return new EntriesStamp(r.getLong(2), r.getInt(1));
    }

    private Sql sql() {
        return new Sql(dataSource);
    }

    /**
     * Planner settings for the search, local to its transaction: no sequential scan. With them, and the store named as
     * {@code (store_id || '')}, which only the trigram index holds (migration V3), and the scopes as
     * {@code (scope || '')}, which no index holds, the search runs on that index
     * whatever the table's statistics say. Left to the statistics, PostgreSQL read the whole store or the whole table
     * and filtered it after an {@code ANALYZE} of a table dominated by one store, several times slower, so the search's
     * speed depended on when autovacuum had last run.
     */
    public static final String PIN_SEARCH_PLAN = "select set_config('enable_seqscan', 'off', true)";

    /**
     * The live entries of {@code scopes} (every scope when empty) whose search text holds every one of
     * {@code words}, by scope in the order given, then name; over JDBC, as {@link #listScopes} is, with the plan
     * pinned by {@link #PIN_SEARCH_PLAN}.
     */
    List<Entry> search(String store, List<Scope> scopes, List<String> words, int limit) {
        return search(store, scopes, words, 0, limit, -1);
    }

    /**
     * As {@link #search(String, List, List, int)}, from the hit at {@code offset} on, none of the hits starting past
     * {@code maxBytes} of content of the hits before it (summed in PostgreSQL), when {@code maxBytes} is not
     * negative: the byte-bounded page and the hit after it, never the rest.
     */
    List<Entry> search(String store, List<Scope> scopes, List<String> words, int offset, int limit, long maxBytes) {
        List<String> distinct = scopes.stream().map(Scope::value).distinct().toList();
        String sql = searchSql(HIT_COLUMNS, !distinct.isEmpty(), words.size(), limit, offset);
        if (maxBytes >= 0 && maxBytes < Long.MAX_VALUE) {
            sql = "select scope, name, content, meta, hash, updated from (select q.*, coalesce(sum(octet_length("
                    + "q.content)) over (order by q.position rows between unbounded preceding and 1 preceding), 0) "
                    + "as bytes_before from (select q.*, row_number() over () as position from (" + sql + ") q) q) q "
                    + "where q.bytes_before <= " + maxBytes + " or q.position <= 2 order by q.position";
        }
        String query = sql;
        return sql().transaction(tx -> {
            tx.first(PIN_SEARCH_PLAN, r -> true);
            return tx.list(0, query, r -> entry(r, 1), searchArgs(store, distinct, words));
        });
    }

    /** One hit of a search ranked by relevance, before its page is read: where it is and its content's size. */
    private record Hit(String scope, String name, long bytes) {
    }

    /**
     * The page of the hits of {@link #search(String, List, List, int)} from {@code offset}, ranked by {@code bm25}
     * (which has terms; equal scores in name order), up to {@code limit} and ending before the hit that would take
     * their content over {@code maxBytes}. Reads every hit's search text once, as it streams from PostgreSQL,
     * keeping only its name, size and term counts, then the page's entries, in one read-only transaction that sees
     * one snapshot; {@link SearchOrder#tooBroad} past {@link SearchOrder#MAX_RANKED} hits.
     */
    Paged<Entry> searchByRelevance(String store, List<Scope> scopes, List<String> words, Bm25 bm25, int offset,
            int limit, long maxBytes) {
        List<String> distinct = scopes.stream().map(Scope::value).distinct().toList();
        String sql = searchSql("scope, name, search_text, octet_length(content)", !distinct.isEmpty(), words.size(),
                SearchOrder.MAX_RANKED + 1, 0);
        return sql().transaction(tx -> {
            tx.update("set transaction isolation level repeatable read, read only");
            tx.first(PIN_SEARCH_PLAN, r -> true);
            List<Hit> hits = new ArrayList<>();
            tx.list(500, sql, r -> {
                if (hits.size() == SearchOrder.MAX_RANKED) {
                    throw SearchOrder.tooBroad();
                }
                hits.add(new Hit(r.getString(1), r.getString(2), r.getLong(4)));
                bm25.add(r.getString(3));
                return true;
            }, searchArgs(store, distinct, words));
            List<Hit> ranked = new ArrayList<>();
            int[] best = bm25.best();
            for (int i = offset; i < best.length; i++) {
                ranked.add(hits.get(best[i]));
            }
            Paged<Hit> page = Paged.of(ranked, limit, maxBytes, Hit::bytes);
            List<Entry> entries = page.items().isEmpty() ? List.of() : tx.list(0, "select e.scope, e.name, "
                    + "e.content, e.meta::text, e.hash, e.updated from unnest(?::text[], ?::text[]) with ordinality "
                    + "as k(scope, name, at) join entry e on e.store_id = ? and e.scope = k.scope and e.name = k.name "
                    + "order by k.at", r -> entry(r, 1), page.items().stream().map(Hit::scope).toArray(String[]::new),
                    page.items().stream().map(Hit::name).toArray(String[]::new), store);
            return new Paged<>(entries, page.more());
        });
    }

    /** The parameters of {@link #searchSql}: the store, the scopes (when any), one pattern a word, the scopes. */
    private static Object[] searchArgs(String store, List<String> scopes, List<String> words) {
        List<Object> args = new ArrayList<>();
        args.add(store);
        String[] order = scopes.toArray(String[]::new);
        if (!scopes.isEmpty()) {
            args.add(order);
        }
        for (String word : words) {
            args.add("%" + escapeLike(word) + "%");
        }
        if (!scopes.isEmpty()) {
            args.add(order);
        }
        return args.toArray();
    }

    /** The columns of a search hit, as {@link #entry} reads them. */
    private static final String HIT_COLUMNS = "scope, name, content, meta::text as meta, hash, updated";

    /** The search's SQL: parameters the store, the scopes (when {@code scoped}), one pattern a word, the scopes. */
    public static String searchSql(boolean scoped, int words, int limit) {
        return searchSql(HIT_COLUMNS, scoped, words, limit, 0);
    }

    /** As {@link #searchSql(boolean, int, int)}, selecting {@code columns}, from the hit at {@code offset} on. */
    public static String searchSql(String columns, boolean scoped, int words, int limit, int offset) {
        StringBuilder sql = new StringBuilder("select " + columns + " from entry where (store_id || '') = ?");
        if (scoped) {
            sql.append(" and (scope || '') = any(?)");
        }
        for (int i = 0; i < words; i++) {
            sql.append(" and search_text like ? escape '\\'");
        }
        sql.append(scoped ? " order by array_position(?, scope), name" : " order by scope, name");
        if (limit > 0) {
            sql.append(" limit ").append(limit);
        }
        if (offset > 0) {
            sql.append(" offset ").append(offset);
        }
        return sql.toString();
    }

    /**
     * The render's SQL: parameters the store three times and, when {@code scoped}, the scopes. The entries are read
     * as {@link #listSql} reads them, through the primary key in its order, and each row carries the store's bound
     * and entries version from subqueries PostgreSQL runs once each; one statement, so they and the entries are of
     * one moment.
     */
    public static String listingSql(boolean scoped) {
        return "select (select s.max_entry_bytes from store s where s.id = ?), "
                + "(select s.entries_version from store s where s.id = ?), e.scope, e.name, e.content, "
                + "e.meta::text, e.hash, e.updated from entry e where e.store_id = ?"
                + (scoped ? " and e.scope = any(?)" : "") + " order by e.scope, e.name";
    }

    /** The SQL of {@link #listScopes}: parameters the store and, when {@code scoped}, the scopes. */
    public static String listSql(boolean scoped) {
        return "select scope, name, content, meta::text, hash, updated from entry where store_id = ?"
                + (scoped ? " and scope = any(?)" : "") + " order by scope, name";
    }

    /** The entry in the six columns from {@code first}: scope, name, content, meta as text, hash, updated. */
    static Entry entry(ResultSet r, int first) throws SQLException {
        return new Entry(new Scope(r.getString(first)), r.getString(first + 1), r.getString(first + 2),
                MetaJson.parse(r.getString(first + 3)), r.getString(first + 4),
                r.getObject(first + 5, OffsetDateTime.class).toInstant(), false);
    }

    private static String escapeLike(String word) {
        return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
