package dev.engram.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigValue;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Iterator;
import java.util.List;
import io.quarkus.runtime.ExecutionMode;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The zero-set-up database: data that outlives the process, and a server left behind by a killed JVM. */
class EmbeddedPostgresTest {

    /** Run in a child JVM: start a server on args[0], write a row, say so, and wait to be killed. */
    public static void main(String[] args) throws Exception {
        EmbeddedPostgres.Server server = EmbeddedPostgres.launch(Path.of(args[0]), false);
        try (Connection c = connect(server); Statement s = c.createStatement()) {
            s.execute("create table kept (note text)");
            s.execute("insert into kept values ('written before the kill')");
        }
        System.out.println("READY " + server.port());
        System.out.flush();
        Thread.sleep(TimeUnit.MINUTES.toMillis(5));
    }

    static Connection connect(EmbeddedPostgres.Server server) throws Exception {
        return DriverManager.getConnection(server.url(), "postgres", server.password());
    }

    @Test
    void recoversFromAServerLeftRunningByAKilledJvmAndKeepsItsData(@TempDir Path home) throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), EmbeddedPostgresTest.class.getName(),
                home.toString()).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("READY")) {
            // the child's log
        }
        assertTrue(line != null, "the child started a server");
        child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);

        Path pidFile = home.resolve("pg/postmaster.pid");
        assertTrue(Files.exists(pidFile), "the killed JVM left its server running");
        long stalePid = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
        assertTrue(ProcessHandle.of(stalePid).map(ProcessHandle::isAlive).orElse(false));
        assertEquals(StalePostmaster.Owner.THIS_SERVER, StalePostmaster.owner(stalePid, home.resolve("pg")),
                "the pid file names this directory's server");

        try (EmbeddedPostgres.Server server = EmbeddedPostgres.launch(home, false);
                Connection c = connect(server);
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("select note from kept")) {
            assertTrue(r.next());
            assertEquals("written before the kill", r.getString(1));
            assertFalse(ProcessHandle.of(stalePid).map(ProcessHandle::isAlive).orElse(false),
                    "the stale server was stopped");
        }
    }

    @Test
    void aConfiguredDatasourceStartsNothing() {
        ConfigSourceContext context = new ConfigSourceContext() {
            @Override
            public ConfigValue getValue(String name) {
                return ConfigValue.builder().withName(name)
                        .withValue(name.equals("quarkus.datasource.jdbc.url") ? "jdbc:postgresql://db:5432/engram" : null)
                        .build();
            }

            @Override
            public List<String> getProfiles() {
                return List.of();
            }

            @Override
            public Iterator<String> iterateNames() {
                return List.<String>of().iterator();
            }
        };
        assertFalse(new EmbeddedDatabaseConfig().sources(context, ExecutionMode.RUNNING).iterator().hasNext());
        assertFalse(new EmbeddedDatabaseConfig().sources(context, ExecutionMode.UNSET).iterator().hasNext(),
                "nothing starts while Quarkus builds");
    }
}
