package dev.engram.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who can reach the embedded PostgreSQL: only whoever holds the password in the data directory, only from this
 * machine, never by trust and never for replication; and a stale pid file never costs an unrelated process its life.
 */
class EmbeddedPostgresAccessTest {

    static String one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            assertTrue(r.next(), sql);
            return r.getString(1);
        }
    }

    static void assertOnlyThePasswordLetsIn(EmbeddedPostgres.Server server) throws Exception {
        SQLException refused = assertThrows(SQLException.class,
                () -> DriverManager.getConnection(server.url(), "postgres", "").close());
        assertTrue(refused.getSQLState() == null || refused.getSQLState().startsWith("28")
                || refused.getSQLState().startsWith("08"), refused.getSQLState() + " " + refused.getMessage());
        assertThrows(SQLException.class,
                () -> DriverManager.getConnection(server.url(), "postgres", "not-the-password").close());
        try (Connection c = DriverManager.getConnection(server.url(), "postgres", server.password())) {
            assertEquals("0", one(c, "select count(*) from pg_hba_file_rules where auth_method in ('trust', "
                    + "'password', 'md5', 'peer', 'ident') or 'replication' = any(database) or error is not null"));
            assertEquals("2", one(c, "select count(*) from pg_hba_file_rules where auth_method = 'scram-sha-256'"));
        }
    }

    @Test
    void aNewServerTakesOnlyItsPasswordOnLoopbackAndKeepsItsSocketToItself(@TempDir Path home) throws Exception {
        try (EmbeddedPostgres.Server server = EmbeddedPostgres.launch(home, true)) {
            Path passwordFile = home.resolve("pg-password");
            assertEquals(passwordFile, server.passwordFile());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(passwordFile)));
            assertEquals(server.password(), Files.readString(passwordFile).strip());
            assertTrue(server.password().length() >= 32);
            assertOnlyThePasswordLetsIn(server);
            try (Connection c = DriverManager.getConnection(server.url(), "postgres", server.password())) {
                assertEquals("127.0.0.1", one(c, "show listen_addresses"));
                assertEquals(home.resolve("pg").toString(), one(c, "show unix_socket_directories"));
                assertEquals("scram-sha-256", one(c, "show password_encryption"));
            }
            assertTrue(Files.exists(home.resolve("pg/.s.PGSQL." + server.port())), "the socket is in the data dir");
            assertFalse(Files.exists(Path.of("/tmp/.s.PGSQL." + server.port())), "and not in /tmp");
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve("pg"))));
        }
    }

    @Test
    void aDataDirectoryFromTheTrustingEngramIsConvertedInPlaceAndKeepsItsData(@TempDir Path home) throws Exception {
        Path data = home.resolve("pg");
        Files.createDirectories(data);
        // What Engram did before: zonky's initdb, trust for every local user and for replication.
        try (io.zonky.test.db.postgres.embedded.EmbeddedPostgres old =
                io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder().setDataDirectory(data.toFile())
                        .setCleanDataDirectory(false).setLocaleConfig("locale", "C").start();
                Connection c = DriverManager.getConnection(old.getJdbcUrl("postgres", "postgres"));
                Statement s = c.createStatement()) {
            s.execute("create table kept (note text)");
            s.execute("insert into kept values ('written by the old Engram')");
            assertTrue(Files.readString(data.resolve("pg_hba.conf")).lines()
                    .anyMatch(l -> l.startsWith("host") && l.contains("trust")), "the old directory trusts");
        }
        assertFalse(Files.exists(home.resolve("pg-password")));

        try (EmbeddedPostgres.Server server = EmbeddedPostgres.launch(home, false)) {
            assertOnlyThePasswordLetsIn(server);
            try (Connection c = DriverManager.getConnection(server.url(), "postgres", server.password())) {
                assertEquals("written by the old Engram", one(c, "select note from kept"));
            }
        }
        String first = Files.readString(home.resolve("pg-password"));
        try (EmbeddedPostgres.Server again = EmbeddedPostgres.launch(home, false)) {
            assertEquals(first, Files.readString(home.resolve("pg-password")), "the password is kept");
            assertOnlyThePasswordLetsIn(again);
        }
    }

    @Test
    void aStalePidFileNamingAnotherProcessLeavesThatProcessAlive(@TempDir Path home) throws Exception {
        try (EmbeddedPostgres.Server server = EmbeddedPostgres.launch(home, true)) {
            assertTrue(server.port() > 0);
        }
        // A process whose program is even called postgres, but which serves no data directory of ours.
        Path bin = Files.createDirectories(home.resolve("elsewhere/bin"));
        Path lookalike = Files.copy(Path.of("/usr/bin/sleep"), bin.resolve("postgres"),
                StandardCopyOption.COPY_ATTRIBUTES);
        Process other = new ProcessBuilder(lookalike.toString(), "300").directory(home.resolve("elsewhere").toFile())
                .start();
        try {
            Path pidFile = home.resolve("pg/postmaster.pid");
            Files.writeString(pidFile, other.pid() + "\n" + home.resolve("pg") + "\n1700000000\n5432\n"
                    + home.resolve("pg") + "\n127.0.0.1\n  1234     5678\nready   \n");
            assertEquals(StalePostmaster.Owner.OTHER, StalePostmaster.owner(other.pid(), home.resolve("pg")));

            try (EmbeddedPostgres.Server server = EmbeddedPostgres.launch(home, false);
                    Connection c = DriverManager.getConnection(server.url(), "postgres", server.password())) {
                assertEquals("1", one(c, "select 1"));
            }
            assertTrue(other.isAlive(), "the process the stale pid file named is alive");
        } finally {
            other.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theSocketGoesNowhereWhenTheDirectoryCannotHoldOne() {
        assertEquals("/srv/engram/pg", EmbeddedPostgres.socketDirectory(Path.of("/srv/engram/pg")));
        assertEquals("''", EmbeddedPostgres.socketDirectory(Path.of("/srv/" + "d".repeat(100) + "/pg")));
        assertEquals("''", EmbeddedPostgres.socketDirectory(Path.of("/home/me/My Documents/engram/pg")));
    }
}
