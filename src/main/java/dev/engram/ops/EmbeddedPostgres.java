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
final class EmbeddedPostgres {

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
        Path data = home.toAbsolutePath().normalize().resolve("pg");
        try {
            Files.createDirectories(data);
            refuseIfInUse(data);
            stopStaleServer(data);
            if (fresh) {
                deleteContents(data);
            }
            long started = System.nanoTime();
            io.zonky.test.db.postgres.embedded.EmbeddedPostgres pg =
                    io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                            .setDataDirectory(data.toFile())
                            .setCleanDataDirectory(false)
                            .setLocaleConfig("locale", "C")
                            .setServerConfig("synchronous_commit", "on")
                            .setServerConfig("max_connections", "200")
                            .setOutputRedirector(ProcessBuilder.Redirect.appendTo(home.resolve("postgres.log").toFile()))
                            .setErrorRedirector(ProcessBuilder.Redirect.appendTo(home.resolve("postgres.log").toFile()))
                            .setPGStartupWait(Duration.ofSeconds(60))
                            .start();
            String url = pg.getJdbcUrl("postgres", "postgres");
            LOG.infof("Engram's data lives in %s (embedded PostgreSQL on port %d, started in %d ms). "
                    + "Set QUARKUS_DATASOURCE_JDBC_URL to use another PostgreSQL, or ENGRAM_DATA_DIR to move it.",
                    data.getParent(), pg.getPort(), (System.nanoTime() - started) / 1_000_000);
            System.setProperty(URL_PROPERTY, url);
            return url;
        } catch (IOException e) {
            throw new IllegalStateException("Could not start the embedded PostgreSQL in " + data + ": "
                    + e.getMessage() + ". See " + home.resolve("postgres.log") + ".", e);
        }
    }

    /** Another live JVM holds the directory's lock: two servers cannot share one data directory. */
    private static void refuseIfInUse(Path data) throws IOException {
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

    private static void deleteContents(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).filter(p -> !p.equals(dir)).map(Path::toFile)
                    .forEach(File::delete);
        }
    }
}
