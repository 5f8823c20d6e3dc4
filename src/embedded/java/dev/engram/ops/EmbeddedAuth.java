package dev.engram.ops;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Who may log in to the embedded server: the user {@code postgres} with a generated password kept in
 * {@code <data dir>/pg-password} (mode 0600), by SCRAM, over the server's own socket or from 127.0.0.1; nobody by
 * trust, and nobody for replication. A data directory from an Engram that trusted every local user is converted on
 * its first start: the password is set in single-user mode, before the server listens.
 */
final class EmbeddedAuth {

    static final String USER = "postgres";
    static final String PASSWORD_FILE = "pg-password";

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private static final String HBA = """
            # Written by Engram at every start (dev.engram.ops.EmbeddedAuth); edits are lost.
            # Password (SCRAM) logins only, from this server's own socket and from 127.0.0.1. No replication.
            # The password of the user postgres is in ../pg-password.
            local   all   all                  scram-sha-256
            host    all   all   127.0.0.1/32   scram-sha-256
            """;

    private EmbeddedAuth() {
    }

    static Path passwordFile(Path home) {
        return home.resolve(PASSWORD_FILE);
    }

    /** The stored password, if this directory has one; the file is made owner-only if it was not. */
    static Optional<String> stored(Path home) throws IOException {
        Path file = passwordFile(home);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        if (posix() && !Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
            Files.setPosixFilePermissions(file, OWNER_ONLY);
        }
        String password = Files.readString(file, StandardCharsets.UTF_8).strip();
        return password.isEmpty() ? Optional.empty() : Optional.of(password);
    }

    /** A new password: 32 characters of base64url, so it needs no quoting in SQL, a URL or a shell. */
    static String generate() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Forgets the password of a data directory that is about to be created again. */
    static void forget(Path home) throws IOException {
        Files.deleteIfExists(passwordFile(home));
    }

    /** Replaces {@code pg_hba.conf}: what initdb wrote (trust for all) or an older Engram left. */
    static void writeHba(Path data) throws IOException {
        Files.writeString(data.resolve("pg_hba.conf"), HBA, StandardCharsets.UTF_8);
    }

    /**
     * Sets {@code password} for {@link #USER} with the server stopped (PostgreSQL in single-user mode), then stores
     * it in the password file. A crash in between leaves no password file, so the next start sets a new one.
     */
    static void setPassword(Path data, Path home, String password) throws IOException {
        Path pending = home.resolve(PASSWORD_FILE + ".new");
        Files.deleteIfExists(pending);
        if (posix()) {
            Files.createFile(pending, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        }
        Files.writeString(pending, password + "\n", StandardCharsets.UTF_8);

        Process single = new ProcessBuilder(PostgresBinaries.command("postgres", List.of("--single", "-D",
                data.toString(), "-c", "password_encryption=scram-sha-256", "-c", "log_min_error_statement=panic",
                "-c", "fsync=on", USER)))
                .redirectErrorStream(true).start();
        try (OutputStream in = single.getOutputStream()) {
            in.write(("ALTER ROLE " + USER + " WITH PASSWORD '" + password + "'\n").getBytes(StandardCharsets.UTF_8));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        single.getInputStream().transferTo(out);
        try {
            if (!single.waitFor(60, TimeUnit.SECONDS)) {
                single.destroyForcibly();
                throw new IOException("PostgreSQL in single-user mode did not finish setting the password");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while setting the password", e);
        }
        String said = out.toString(StandardCharsets.UTF_8);
        if (single.exitValue() != 0 || said.contains("ERROR") || said.contains("FATAL")) {
            throw new IOException("PostgreSQL could not set the password (exit " + single.exitValue() + "): "
                    + said.strip());
        }
        Files.move(pending, passwordFile(home), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }
}
