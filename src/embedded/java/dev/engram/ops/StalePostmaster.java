package dev.engram.ops;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * A {@code postmaster.pid} left in the data directory, by a server whose JVM was killed or by one that crashed. The
 * process it names is stopped only when it is proven to be this directory's server: a program named
 * {@code postgres} whose {@code -D} argument or working directory is this directory ({@code /proc}, so Linux).
 * A PID that now belongs to another process is left alone, and so is the stale file when that cannot be proven.
 */
final class StalePostmaster {

    private static final Logger LOG = Logger.getLogger(StalePostmaster.class);

    /** What the process named by a pid file is. */
    enum Owner {
        /** A PostgreSQL server on this data directory. */
        THIS_SERVER,
        /** Some other process: another program, or PostgreSQL on another directory. */
        OTHER,
        /** Cannot be told (no {@code /proc}, or not allowed to read it). */
        UNKNOWN
    }

    private StalePostmaster() {
    }

    /**
     * Before a server starts on {@code data}: stops a live server of this directory; removes a pid file naming a
     * live process that is not one (PostgreSQL would refuse to start while that process lives); otherwise leaves
     * the file to PostgreSQL, which ignores one whose process is gone.
     */
    static void clear(Path data) throws IOException {
        Path pidFile = data.resolve("postmaster.pid");
        Optional<ProcessHandle> named = pid(pidFile).flatMap(ProcessHandle::of).filter(ProcessHandle::isAlive);
        if (named.isEmpty()) {
            return;
        }
        ProcessHandle process = named.get();
        switch (owner(process.pid(), data)) {
            case THIS_SERVER -> stop(process, data);
            case OTHER -> {
                LOG.warnf("%s names pid %d, which is not a PostgreSQL server of this directory: the file is stale, "
                        + "removing it and leaving that process alone.", pidFile, process.pid());
                Files.deleteIfExists(pidFile);
            }
            case UNKNOWN -> LOG.warnf("%s names pid %d, which may or may not be a server of this directory; "
                    + "leaving both to PostgreSQL.", pidFile, process.pid());
        }
    }

    /** The pid on the first line of a pid file, if there is one. */
    static Optional<Long> pid(Path pidFile) {
        try {
            List<String> lines = Files.readAllLines(pidFile);
            return lines.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Whether process {@code pid} is a PostgreSQL server on {@code data}, read from {@code /proc}. */
    static Owner owner(long pid, Path data) {
        Path proc = Path.of("/proc", Long.toString(pid));
        List<String> argv;
        try {
            argv = split(Files.readAllBytes(proc.resolve("cmdline")));
        } catch (IOException | SecurityException e) {
            return Owner.UNKNOWN;
        }
        if (argv.isEmpty()) {
            return Owner.UNKNOWN;
        }
        Path program = Path.of(argv.get(0)).getFileName();
        if (program == null || !(program.toString().equals("postgres") || program.toString().equals("postmaster"))) {
            return Owner.OTHER;
        }
        Path real;
        try {
            real = data.toRealPath();
        } catch (IOException e) {
            return Owner.UNKNOWN;
        }
        Optional<String> dashD = dataDirectoryArgument(argv).filter(d -> Path.of(d).isAbsolute());
        if (dashD.isPresent()) {
            return same(Path.of(dashD.get()), real) ? Owner.THIS_SERVER : Owner.OTHER;
        }
        try {
            return proc.resolve("cwd").toRealPath().equals(real) ? Owner.THIS_SERVER : Owner.OTHER;
        } catch (IOException | SecurityException e) {
            return Owner.UNKNOWN;
        }
    }

    private static Optional<String> dataDirectoryArgument(List<String> argv) {
        for (int i = 1; i < argv.size(); i++) {
            if (argv.get(i).equals("-D") && i + 1 < argv.size()) {
                return Optional.of(argv.get(i + 1));
            }
            if (argv.get(i).startsWith("-D") && argv.get(i).length() > 2) {
                return Optional.of(argv.get(i).substring(2));
            }
        }
        return Optional.empty();
    }

    private static boolean same(Path dir, Path real) {
        try {
            return dir.toRealPath().equals(real);
        } catch (IOException e) {
            return false;
        }
    }

    private static List<String> split(byte[] cmdline) {
        List<String> args = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < cmdline.length; i++) {
            if (cmdline[i] == 0) {
                args.add(new String(cmdline, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        if (start < cmdline.length) {
            args.add(new String(cmdline, start, cmdline.length - start, StandardCharsets.UTF_8));
        }
        return args;
    }

    private static void stop(ProcessHandle server, Path data) {
        LOG.warnf("Stopping PostgreSQL (pid %d) left running in %s by an Engram that did not shut down.",
                server.pid(), data);
        server.destroy();
        try {
            server.onExit().get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            server.destroyForcibly();
            server.onExit().join();
        }
    }
}
