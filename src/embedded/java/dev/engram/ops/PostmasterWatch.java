package dev.engram.ops;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Keeps the embedded server running. Once a second it checks that the postmaster lives; when it died (killed, or
 * out of memory) it starts it again with pg_ctl on the same directory and port, so the pool's next connections
 * work, and retries every few seconds until that succeeds. Its state is kept in system properties, which outlive
 * Quarkus restarts in tests, for the liveness check ({@link EmbeddedDatabaseHealth}) to read.
 */
final class PostmasterWatch implements Runnable {

    /** Set, to the epoch millisecond the postmaster was found dead, while it is down. */
    static final String DOWN_SINCE = "dev.engram.embedded-postgres.down-since";
    /** Why the last start failed, while it is down. */
    static final String LAST_ERROR = "dev.engram.embedded-postgres.last-error";
    /** How many times the postmaster was started again. */
    static final String RESTARTS = "dev.engram.embedded-postgres.restarts";

    private static final Logger LOG = Logger.getLogger(PostmasterWatch.class);
    private static final long CHECK_MILLIS = 1000;
    private static final long RETRY_MILLIS = 3000;

    private final Path data;
    private final File log;
    private final List<String> serverOptions;
    private volatile long pid;
    private volatile boolean stopping;

    private PostmasterWatch(Path data, File log, List<String> serverOptions, long pid) {
        this.data = data;
        this.log = log;
        this.serverOptions = List.copyOf(serverOptions);
        this.pid = pid;
    }

    /** Watches the postmaster of {@code data}, started with {@code serverOptions}, until the JVM exits. */
    static void start(Path data, File log, List<String> serverOptions) {
        Optional<Long> pid = StalePostmaster.pid(data.resolve("postmaster.pid"));
        if (pid.isEmpty()) {
            LOG.warnf("No postmaster.pid in %s: the embedded PostgreSQL is not watched.", data);
            return;
        }
        PostmasterWatch watch = new PostmasterWatch(data, log, serverOptions, pid.get());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> watch.stopping = true, "engram-postmaster-watch-stop"));
        Thread thread = new Thread(watch, "engram-postmaster-watch");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        while (!stopping) {
            sleep(CHECK_MILLIS);
            if (stopping || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                continue;
            }
            LOG.errorf("The embedded PostgreSQL (pid %d) stopped. Starting it again on %s.", pid, data);
            System.setProperty(DOWN_SINCE, Long.toString(System.currentTimeMillis()));
            while (!stopping && !restart()) {
                sleep(RETRY_MILLIS);
            }
        }
    }

    /** One attempt: pg_ctl start, waiting until the server accepts connections or fails. */
    private boolean restart() {
        try {
            StalePostmaster.clear(data);
            Process pgCtl = new ProcessBuilder(PostgresBinaries.command("pg_ctl", List.of("-D", data.toString(),
                    "-o", String.join(" ", serverOptions), "-l", log.toString(), "-w", "-t", "60", "start")))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
            if (!pgCtl.waitFor(90, TimeUnit.SECONDS)) {
                pgCtl.destroyForcibly();
                return failed("pg_ctl did not finish in 90 s");
            }
            if (pgCtl.exitValue() != 0) {
                return failed("pg_ctl start exited with " + pgCtl.exitValue() + "; see " + log);
            }
            Optional<Long> started = StalePostmaster.pid(data.resolve("postmaster.pid"));
            if (started.isEmpty()) {
                return failed("the server wrote no postmaster.pid");
            }
            pid = started.get();
            System.clearProperty(DOWN_SINCE);
            System.clearProperty(LAST_ERROR);
            System.setProperty(RESTARTS, Integer.toString(Integer.getInteger(RESTARTS, 0) + 1));
            LOG.warnf("The embedded PostgreSQL runs again (pid %d).", pid);
            return true;
        } catch (IOException e) {
            return failed(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopping = true;
            return false;
        }
    }

    private static boolean failed(String why) {
        System.setProperty(LAST_ERROR, why);
        LOG.errorf("The embedded PostgreSQL did not start again: %s. Retrying.", why);
        return false;
    }

    private void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopping = true;
        }
    }
}
