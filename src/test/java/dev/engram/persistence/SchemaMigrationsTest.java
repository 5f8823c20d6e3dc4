package dev.engram.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import org.flywaydb.core.api.FlywayException;
import org.junit.jupiter.api.Test;

/**
 * Flyway is skipped at start only when the history is exactly what this build ships: the checksums computed here
 * are the ones Flyway recorded when it migrated this test database, and a history that differs runs Flyway.
 */
@QuarkusTest
class SchemaMigrationsTest {

    @Inject
    SchemaMigrations migrations;

    @Inject
    AgroalDataSource db;

    @Test
    void theShippedMigrationsAreExactlyWhatFlywayApplied() {
        Map<String, Integer> shipped = ShippedMigrations.read(getClass().getClassLoader()).orElseThrow();
        assertTrue(shipped.containsKey("1") && shipped.containsKey("12"), shipped.toString());
        assertTrue(shipped.keySet().containsAll(FunctionScripts.expected().keySet()), shipped.toString());
        assertEquals(migrations.applied(), shipped);
    }

    @Test
    void aHistoryThatDiffersRunsFlywayWhichReportsIt() throws Exception {
        exec("update flyway_schema_history set checksum = checksum + 1 where version = '1'");
        try {
            FlywayException e = assertThrows(FlywayException.class, () -> migrations.migrate(null));
            assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
        } finally {
            exec("update flyway_schema_history set checksum = checksum - 1 where version = '1'");
        }
        migrations.migrate(null); // the history is right again: nothing to do, and no Flyway
    }

    @Test
    void anOlderEngramOnANewerSchemaStarts() throws Exception {
        // a rollback: the database has a migration this build does not ship; Flyway runs and ignores it
        exec("insert into flyway_schema_history (installed_rank, version, description, type, script, checksum,"
                + " installed_by, execution_time, success) values (9999, '9999', 'from the future', 'SQL',"
                + " 'V9999__from_the_future.sql', 1, 'test', 0, true)");
        // and its repeatable migrations: this build's older R__journal.sql must not be applied over them
        exec("update flyway_schema_history set checksum = checksum + 7 where script like '%R\\_\\_journal.sql'");
        long rows = count("select count(*) from flyway_schema_history");
        try {
            migrations.migrate(null);
            assertEquals(rows, count("select count(*) from flyway_schema_history"), "nothing applied");
        } finally {
            exec("delete from flyway_schema_history where installed_rank = 9999");
            exec("update flyway_schema_history set checksum = checksum - 7 where script like '%R\\_\\_journal.sql'");
        }
        assertEquals(ShippedMigrations.read(getClass().getClassLoader()).orElseThrow(), migrations.applied());
    }

    @Test
    void aRepeatableMigrationThatChangedIsAppliedAgain() throws Exception {
        // an upgrade that changed R__journal.sql: the history has its older checksum, so Flyway runs and re-applies it
        exec("update flyway_schema_history set checksum = checksum + 1 where script like '%R\\_\\_journal.sql'");
        migrations.migrate(null);
        assertEquals(ShippedMigrations.read(getClass().getClassLoader()).orElseThrow(), migrations.applied());
        assertEquals(2, count("select count(*) from flyway_schema_history where script like '%R\\_\\_journal.sql'"));
    }

    @Test
    void theDatabaseEndsWithTheRepeatableDefinitions() throws Exception {
        // this database was migrated by every V file (whose functions are the older definitions), then the R files
        Map<String, String> expected = new TreeMap<>();
        FunctionScripts.expected().keySet().forEach(f -> expected.putAll(FunctionScripts.functions(
                FunctionScripts.script(f))));
        Map<String, String> live = new TreeMap<>();
        try (Connection c = db.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("select p.proname, p.prosrc from pg_proc p join pg_namespace n"
                        + " on n.oid = p.pronamespace where n.nspname = 'public' and p.proname like 'engram\\_%'")) {
            while (r.next()) {
                assertEquals(null, live.put(r.getString(1), r.getString(2)), "one definition of " + r.getString(1));
            }
        }
        assertEquals(expected, live);
    }

    @Test
    void aRepeatableMigrationNoLongerShippedIsNoError() throws Exception {
        // one this build renamed or split: its history row stays, and Flyway ignores it
        exec("insert into flyway_schema_history (installed_rank, version, description, type, script, checksum,"
                + " installed_by, execution_time, success) values (9998, null, 'gone', 'SQL', 'R__gone.sql', 1,"
                + " 'test', 0, true)");
        try {
            migrations.migrate(null);
        } finally {
            exec("delete from flyway_schema_history where installed_rank = 9998");
        }
        assertEquals(ShippedMigrations.read(getClass().getClassLoader()).orElseThrow(), migrations.applied());
    }

    @Test
    void aNewerSchemaHasEveryShippedVersionUnchangedAndMore() {
        Map<String, Integer> shipped = Map.of("1", 10, "2", 20, "R__journal.sql", 30);
        assertTrue(SchemaMigrations.newer(shipped, Map.of("1", 10, "2", 20, "3", 5, "R__journal.sql", 31)));
        assertTrue(SchemaMigrations.newer(shipped, Map.of("1", 10, "2", 20, "3", 5)));
        assertFalse(SchemaMigrations.newer(shipped, Map.of("1", 10, "2", 20, "R__journal.sql", 31)), "same versions");
        assertFalse(SchemaMigrations.newer(shipped, Map.of("1", 10, "3", 5)), "one missing: an upgrade");
        assertFalse(SchemaMigrations.newer(shipped, Map.of("1", 11, "2", 20, "3", 5)), "one changed: Flyway reports");
        assertFalse(SchemaMigrations.newer(shipped, Map.of()), "an empty database");
    }

    @Test
    void versionsAndChecksumsAsFlywayRecordsThem() throws Exception {
        assertEquals("12", ShippedMigrations.version("db/migration/V12__context_steps_as_rows.sql"));
        assertEquals("1.2", ShippedMigrations.version("db/migration/V1_2__x.sql"));
        assertNull(ShippedMigrations.version("db/migration/R__repeatable.sql"));
        assertNull(ShippedMigrations.version("db/migration/sub/V3__x.sql"));
        assertNull(ShippedMigrations.version("other/V3__x.sql"));
        // line breaks of either kind and a byte order mark do not change it
        int unix = ShippedMigrations.checksum(in("select 1;\nselect 2;\n"));
        assertEquals(unix, ShippedMigrations.checksum(in("\uFEFFselect 1;\r\nselect 2;\r\n")));
        assertTrue(unix != ShippedMigrations.checksum(in("select 1;\nselect 3;\n")));
    }

    private static ByteArrayInputStream in(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
    }

    private long count(String sql) throws Exception {
        try (Connection c = db.getConnection(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    private void exec(String sql) throws Exception {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
