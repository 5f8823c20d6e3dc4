package dev.engram.persistence;

import dev.engram.entries.persistence.PgEntryQueries;
import dev.engram.entries.persistence.PgStores;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Scope;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The plans of the hot queries do not depend on the table's statistics: on a table dominated by one store, before
 * and after {@code ANALYZE}, as a custom plan (the first executions of a statement) and as the generic plan
 * PostgreSQL switches a prepared statement to, the search runs on the trigram index led by the store, the render and
 * the write function's lookups of an entry on the primary key, and none of them scans the entry table. (The write
 * function's other statements address the store row by its primary key, which on the few stores of a test
 * database PostgreSQL rightly reads by a sequential scan of one page.)
 */
@QuarkusTest
class QueryPlansTest {

    static final String BIG = "plans-big";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    PgStores stores;

    @BeforeEach
    void seedATableDominatedByOneStore() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            try (ResultSet r = s.executeQuery("select count(*) from entry where store_id = '" + BIG + "'")) {
                r.next();
                if (r.getLong(1) > 0) {
                    return;
                }
            }
            s.execute("insert into store (id, seq, max_entry_bytes) select id, 0, 4096 from unnest(array['" + BIG
                    + "', 'plans-a', 'plans-b', 'plans-c']) id on conflict do nothing");
            s.execute("insert into entry (store_id, scope, name, content, meta, hash, updated, search_text) "
                    + "select s.id, 'notes', 'note-' || i, c, '{}', md5(c), now(), lower('note-' || i || ' ' || c) "
                    + "from (values ('" + BIG + "', 10000), ('plans-a', 1000), ('plans-b', 1000), ('plans-c', 1000)) "
                    + "s(id, n), generate_series(1, s.n) i, lateral (select 'Note ' || i || ' on '"
                    + " || (array['alpha','bravo','charlie','delta','echo'])[1 + i % 5] || ' and '"
                    + " || (array['foxtrot','golf','hotel','india'])[1 + i % 4] || '. ' || repeat('Filler. ', 20) c) x");
        }
    }

    @ParameterizedTest(name = "analyzed: {0}")
    @ValueSource(booleans = {false, true})
    void theSearchRunsOnTheTrigramIndexWhateverTheStatistics(boolean analyzed) throws SQLException {
        analyze(analyzed);
        for (String mode : List.of("force_custom_plan", "force_generic_plan")) {
            String plan = plan(PgEntryQueries.searchSql(false, 2, 20), mode, true, BIG, "%bravo%", "%hotel%");
            assertTrue(plan.contains("entry_search"), mode + ": " + plan);
            assertFalse(plan.contains("Seq Scan"), mode + ": " + plan);
            String scoped = plan(PgEntryQueries.searchSql(true, 1, 20), mode, true, BIG, new Scope[] {
                new Scope("notes")}, "%a%", new Scope[] {new Scope("notes")});
            assertTrue(scoped.contains("entry_search"), mode + ": " + scoped);
            assertFalse(scoped.contains("Seq Scan"), mode + ": " + scoped);
        }
    }

    @ParameterizedTest(name = "analyzed: {0}")
    @ValueSource(booleans = {false, true})
    void theRenderOfASmallStoreReadsThePrimaryKey(boolean analyzed) throws SQLException {
        analyze(analyzed);
        for (String mode : List.of("force_custom_plan", "force_generic_plan")) {
            String plan = plan(PgEntryQueries.listSql(true), mode, false, "plans-a",
                    new Scope[] {new Scope("notes")});
            assertTrue(plan.contains("entry_pkey"), mode + ": " + plan);
            assertFalse(plan.contains("Seq Scan"), mode + ": " + plan);
            String listing = plan(PgEntryQueries.listingSql(true), mode, false, "plans-a", "plans-a", "plans-a",
                    new Scope[] {new Scope("notes")});
            assertTrue(listing.contains("entry_pkey"), mode + ": " + listing);
            assertFalse(listing.contains("Seq Scan on entry"), mode + ": " + listing);
        }
    }

    @ParameterizedTest(name = "analyzed: {0}")
    @ValueSource(booleans = {false, true})
    void theWriteFunctionsLookUpsUseTheirKeys(boolean analyzed) throws SQLException {
        analyze(analyzed);
        Map<String, List<Object>> statements = Map.of(
                "select e.hash, e.meta, octet_length(e.content) from entry e where e.store_id = ? and e.scope = ? "
                        + "and e.name = ?", List.of(BIG, "notes", "note-7"),
                "delete from entry e where e.store_id = ? and e.scope = ? and e.name = ? returning e.hash",
                List.of(BIG, "notes", "note-none"));
        for (String mode : List.of("force_custom_plan", "force_generic_plan")) {
            for (var statement : statements.entrySet()) {
                String plan = plan(statement.getKey(), mode, false, statement.getValue().toArray());
                assertTrue(plan.contains("_pkey"), mode + ": " + plan);
                assertFalse(plan.contains("Seq Scan"), mode + ": " + plan);
            }
        }
    }

    private void analyze(boolean analyzed) throws SQLException {
        if (analyzed) {
            try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
                s.execute("analyze entry");
                s.execute("analyze store");
            }
        }
    }

    /**
     * The plan of {@code sql} with {@code params}, as PostgreSQL would run it in {@code mode}: the statement is
     * prepared under a name and explained as executed, in a transaction that is rolled back.
     */
    private String plan(String sql, String mode, boolean pinned, Object... params) throws SQLException {
        StringBuilder numbered = new StringBuilder();
        int n = 0;
        for (char ch : sql.toCharArray()) {
            numbered.append(ch == '?' ? "$" + (++n) : String.valueOf(ch));
        }
        List<String> literals = new ArrayList<>();
        for (Object p : params) {
            literals.add(p instanceof Scope[] scopes ? "array[" + String.join(",", java.util.Arrays.stream(scopes)
                    .map(s -> "'" + s.value() + "'").toList()) + "]::text[]" : "'" + p + "'");
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                if (pinned) {
                    s.execute(PgEntryQueries.PIN_SEARCH_PLAN);
                }
                s.execute("set local plan_cache_mode = " + mode);
                s.execute("prepare plan_probe as " + numbered);
                StringBuilder plan = new StringBuilder();
                try (PreparedStatement explain = c.prepareStatement("explain execute plan_probe("
                        + String.join(", ", literals) + ")"); ResultSet r = explain.executeQuery()) {
                    while (r.next()) {
                        plan.append(r.getString(1)).append('\n');
                    }
                }
                return plan.toString();
            } finally {
                c.rollback();
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute("deallocate plan_probe");
                } catch (SQLException notPrepared) {
                    // the prepare itself failed; nothing to free
                }
            }
        }
    }
}
