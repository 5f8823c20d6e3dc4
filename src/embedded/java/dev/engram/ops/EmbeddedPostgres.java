package dev.engram.ops;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * The embedded PostgreSQL Engram starts when no datasource URL is configured: real PostgreSQL binaries from Maven
 * Central, with a data directory that persists between runs. It listens on 127.0.0.1 only, with its Unix socket in
 * its own data directory, and takes only the password in {@code pg-password} ({@link EmbeddedAuth}). One server per
 * JVM, watched and started again if it dies ({@link PostmasterWatch}); a server left running by a JVM that was
 * killed is stopped before a new one starts on the same directory ({@link StalePostmaster}).
 */
public final class EmbeddedPostgres {

    /** The system property that holds the running server's JDBC URL, so a restart in the same JVM reuses it. */
    static final String URL_PROPERTY = "dev.engram.embedded-postgres.url";

    private static final Logger LOG = Logger.getLogger(EmbeddedPostgres.class);
    private static final String LOCK_FILE = "epg-lock";
    /** A Unix socket path holds at most 107 bytes; the socket's own name takes 17 of them. */
    private static final int MAX_SOCKET_DIR = 90;
    private static final Pattern PLAIN_PATH = Pattern.compile("[A-Za-z0-9/._+-]+");

    private EmbeddedPostgres() {
    }

    /** Starts the server on {@code home} once per JVM, watches it, and returns its JDBC URL. */
    static synchronized String start(Path home, boolean fresh) {
        String running = System.getProperty(URL_PROPERTY);
        if (running != null) {
            return running;
        }
        Server server = launch(home, fresh);
        PostmasterWatch.start(server.home().resolve("pg"), server.home().resolve("postgres.log").toFile(),
                server.options());
        LOG.infof("Engram's data lives in %s (embedded PostgreSQL on port %d, listening on 127.0.0.1 only, user %s, "
                + "password in %s, started in %d ms). Set QUARKUS_DATASOURCE_JDBC_URL to use another PostgreSQL, "
                + "or ENGRAM_DATA_DIR to move it.", server.home(), server.port(), EmbeddedAuth.USER,
                server.passwordFile(), server.startMillis());
        System.setProperty(URL_PROPERTY, server.url());
        return server.url();
    }

    /** The password of the server this JVM started on {@code home}. */
    static String password(Path home) {
        try {
            return EmbeddedAuth.stored(home.toAbsolutePath().normalize())
                    .orElseThrow(() -> new IllegalStateException("No password in " + EmbeddedAuth.passwordFile(home)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A running server: stop it with {@link #close}, or leave it to the JVM's shutdown. Its password is in
     * {@link #passwordFile}; the user is {@code postgres}.
     */
    public record Server(Path home, String url, int port, long startMillis, Path passwordFile, List<String> options,
            io.zonky.test.db.postgres.embedded.EmbeddedPostgres postgres) implements AutoCloseable {

        /** The password, read from its file. */
        public String password() {
            return EmbeddedPostgres.password(home);
        }

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
            StalePostmaster.clear(data);
            if (fresh || neverInitialised(data)) {
                deleteContents(data);
                EmbeddedAuth.forget(base);
            }
            String stored = EmbeddedAuth.stored(base).orElse(null);
            String password = stored != null ? stored : EmbeddedAuth.generate();
            Map<String, String> settings = settings(data, fresh);
            long started = System.nanoTime();
            File log = base.resolve("postgres.log").toFile();
            io.zonky.test.db.postgres.embedded.EmbeddedPostgres.Builder builder =
                    io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                            .setDataDirectory(data.toFile())
                            .setCleanDataDirectory(false)
                            .setLocaleConfig("locale", "C")
                            .setConnectConfig("password", password)
                            .setDataDirectoryCustomizer(dir -> secure(data, base, stored == null ? password : null))
                            .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log))
                            .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log))
                            .setPGStartupWait(Duration.ofSeconds(60))
                            .setPort(port);
            settings.forEach(builder::setServerConfig);
            io.zonky.test.db.postgres.embedded.EmbeddedPostgres pg = builder.start();
            String url = "jdbc:postgresql://127.0.0.1:" + pg.getPort() + "/postgres?user=" + EmbeddedAuth.USER;
            return new Server(base, url, pg.getPort(), (System.nanoTime() - started) / 1_000_000,
                    EmbeddedAuth.passwordFile(base), options(pg.getPort(), settings), pg);
        } catch (IOException | UncheckedIOException e) {
            throw new IllegalStateException("Could not start the embedded PostgreSQL in " + data + ": "
                    + e.getMessage() + ". See " + base.resolve("postgres.log") + ".", e);
        }
    }

    /**
     * The server's settings. zonky starts PostgreSQL with -F (no fsync); a memory kept between runs wants it on,
     * and only throwaway test data does without.
     */
    private static Map<String, String> settings(Path data, boolean fresh) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("timezone", "UTC");
        settings.put("synchronous_commit", "on");
        settings.put("fsync", fresh ? "off" : "on");
        settings.put("max_connections", "200");
        settings.put("listen_addresses", "127.0.0.1");
        settings.put("unix_socket_directories", socketDirectory(data));
        settings.put("password_encryption", "scram-sha-256");
        return settings;
    }

    /**
     * The data directory itself (mode 0700, so only its owner reaches the socket), or none at all when its path is
     * too long for a socket or would need quoting on pg_ctl's command line.
     */
    static String socketDirectory(Path data) {
        String dir = data.toString();
        return dir.length() <= MAX_SOCKET_DIR && PLAIN_PATH.matcher(dir).matches() ? dir : "''";
    }

    /** The postgres options pg_ctl passes when the server is started again, as zonky passes them. */
    private static List<String> options(int port, Map<String, String> settings) {
        List<String> options = new ArrayList<>(List.of("-p", Integer.toString(port)));
        settings.forEach((k, v) -> options.add("-c " + k + "=" + v));
        return options;
    }

    /** Before the postmaster starts: password logins only, and the password set if this directory has none. */
    private static void secure(Path data, Path base, String newPassword) {
        try {
            EmbeddedAuth.writeHba(data);
            if (newPassword != null) {
                LOG.infof("Setting a password for the embedded PostgreSQL in %s.", EmbeddedAuth.passwordFile(base));
                EmbeddedAuth.setPassword(data, base, newPassword);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
