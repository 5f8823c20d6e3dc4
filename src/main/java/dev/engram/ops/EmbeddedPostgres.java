package dev.engram.ops;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * The embedded PostgreSQL Engram starts when no datasource URL is configured: real PostgreSQL binaries from Maven
 * Central, with a data directory that persists between runs. One server per JVM; a server left running by a JVM
 * that was killed is stopped before a new one starts on the same directory.
 */
public final class EmbeddedPostgres {

    /** The system property that holds the running server's JDBC URL, so a restart in the same JVM reuses it. */
    static final String URL_PROPERTY = "dev.engram.embedded-postgres.url";

    private static final Logger LOG = Logger.getLogger(EmbeddedPostgres.class);
    private static final String LOCK_FILE = "epg-lock";

    private EmbeddedPostgres() {
    }

    /** Starts the server on {@code home} once per JVM and returns its JDBC URL. */
    static synchronized String start(Path home, boolean fresh) {
        String running = System.getProperty(URL_PROPERTY);
        if (running != null) {
            return running;
        }
        Server server = launch(home, fresh);
        LOG.infof("Engram's data lives in %s (embedded PostgreSQL on port %d, started in %d ms). "
                + "Set QUARKUS_DATASOURCE_JDBC_URL to use another PostgreSQL, or ENGRAM_DATA_DIR to move it.",
                server.home(), server.port(), server.startMillis());
        System.setProperty(URL_PROPERTY, server.url());
        return server.url();
    }

    /** A running server: stop it with {@link #close}, or leave it to the JVM's shutdown. */
    public record Server(Path home, String url, int port, long startMillis,
            io.zonky.test.db.postgres.embedded.EmbeddedPostgres postgres) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            postgres.close();
        }
    }

    /**
     * Starts a server on {@code home}/pg: stops one left running there by a killed JVM, refuses a directory
     * another live JVM uses, and with {@code fresh} starts from an empty directory.
     */
    static Server launch(Path home, boolean fresh) {
        return launch(home, fresh, 0);
    }

    /** As {@link #launch(Path, boolean)}, on {@code port} (0: any free one), so a restarted server keeps it. */
    public static Server launch(Path home, boolean fresh, int port) {
        Path base = home.toAbsolutePath().normalize();
        Path data = base.resolve("pg");
        try {
            Files.createDirectories(data);
            refuseIfInUse(data);
            stopStaleServer(data);
            if (fresh || neverInitialised(data)) {
                deleteContents(data);
            }
            long started = System.nanoTime();
            File log = base.resolve("postgres.log").toFile();
            io.zonky.test.db.postgres.embedded.EmbeddedPostgres pg =
                    io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                            .setDataDirectory(data.toFile())
                            .setCleanDataDirectory(false)
                            .setLocaleConfig("locale", "C")
                            .setServerConfig("synchronous_commit", "on")
                            // zonky starts PostgreSQL with -F (no fsync); a memory kept between runs wants it on,
                            // and only throwaway test data does without.
                            .setServerConfig("fsync", fresh ? "off" : "on")
                            .setServerConfig("max_connections", "200")
                            .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log))
                            .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log))
                            .setPGStartupWait(Duration.ofSeconds(60))
                            .setPort(port)
                            .start();
            return new Server(base, pg.getJdbcUrl("postgres", "postgres"), pg.getPort(),
                    (System.nanoTime() - started) / 1_000_000, pg);
        } catch (IOException e) {
            throw new IllegalStateException("Could not start the embedded PostgreSQL in " + data + ": "
                    + e.getMessage() + ". See " + base.resolve("postgres.log") + ".", e);
        }
    }

    /** Another live JVM holds the directory's lock: two servers cannot share one data directory. */
    private static void refuseIfInUse(Path data) throws IOException {
        if (!Files.exists(data.resolve(LOCK_FILE))) {
            return;
        }
        try (RandomAccessFile file = new RandomAccessFile(data.resolve(LOCK_FILE).toFile(), "rw");
                FileLock lock = file.getChannel().tryLock()) {
            if (lock == null) {
                throw new IllegalStateException("The data directory " + data.getParent() + " is in use by another "
                        + "running Engram. Stop it, or give this one its own directory with ENGRAM_DATA_DIR.");
            }
        }
    }

    /** A server whose JVM was killed keeps running and holds the directory; stop it. */
    private static void stopStaleServer(Path data) throws IOException {
        Path pidFile = data.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        List<String> lines = Files.readAllLines(pidFile);
        Optional<ProcessHandle> server = lines.isEmpty() ? Optional.empty()
                : parsePid(lines.get(0)).flatMap(ProcessHandle::of);
        if (server.isEmpty() || !server.get().isAlive()
                || !server.get().info().command().map(c -> c.contains("postgres")).orElse(false)) {
            return;
        }
        LOG.warnf("Stopping PostgreSQL (pid %d) left running in %s by an Engram that did not shut down.",
                server.get().pid(), data);
        server.get().destroy();
        try {
            server.get().onExit().get(20, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            server.get().destroyForcibly();
            server.get().onExit().join();
        }
    }

    private static Optional<Long> parsePid(String line) {
        try {
            return Optional.of(Long.parseLong(line.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** A directory initdb never finished (it holds no PG_VERSION) may be emptied; initdb needs it empty. */
    private static boolean neverInitialised(Path data) {
        return !Files.exists(data.resolve("PG_VERSION"));
    }

    private static void deleteContents(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).filter(p -> !p.equals(dir)).map(Path::toFile)
                    .forEach(File::delete);
        }
    }
}
