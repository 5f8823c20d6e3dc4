package dev.engram.ops;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The PostgreSQL programs zonky unpacked, for the two things zonky does not do: setting a password in single-user
 * mode and starting a postmaster again after it died. They are found where zonky puts them (its working directory,
 * {@code PG-<md5 of the archive>}), and run the way zonky runs them: under {@code unshare -U} when that is available,
 * because PostgreSQL refuses to run as root.
 */
final class PostgresBinaries {

    private static Path home;

    private PostgresBinaries() {
    }

    /** The command line that runs {@code program} (such as {@code pg_ctl}) with {@code args}. */
    static List<String> command(String program, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            command.add("unshare");
            command.add("-U");
        }
        command.add(home().resolve("bin").resolve(program).toString());
        command.addAll(args);
        return command;
    }

    /** The directory zonky unpacked the binaries into; zonky has unpacked them once a server was built. */
    static synchronized Path home() throws IOException {
        if (home != null) {
            return home;
        }
        Path working = Path.of(System.getProperty("ot.epg.working-dir",
                Path.of(System.getProperty("java.io.tmpdir"), "embedded-pg").toString()));
        Path dir = working.resolve("PG-" + archiveDigest());
        if (!Files.isExecutable(dir.resolve("bin").resolve("postgres"))) {
            throw new IOException("The PostgreSQL binaries are not unpacked in " + dir);
        }
        home = dir;
        return dir;
    }

    /** The MD5 of the binaries archive, which names zonky's directory for it. */
    private static String archiveDigest() throws IOException {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String system = os.contains("win") ? "Windows" : os.contains("mac") ? "Darwin" : "Linux";
        String arch = System.getProperty("os.arch");
        try (InputStream archive = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system,
                "amd64".equals(arch) ? "x86_64" : arch);
                DigestInputStream digest = new DigestInputStream(archive, MessageDigest.getInstance("MD5"))) {
            digest.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(digest.getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IOException("MD5 is not available", e);
        }
    }
}
