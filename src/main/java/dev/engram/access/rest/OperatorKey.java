package dev.engram.access.rest;

import dev.engram.access.ApiKeys;
import dev.engram.ops.EngramConfig;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The operator's key: {@code engram.admin-key} ({@code ENGRAM_ADMIN_KEY}) when set, else the key in
 * {@code <data-dir>/admin-key}, generated at the first start with mode 0600 and kept for the next ones. Only its
 * hash stays in memory, and the log names the file, never the key.
 */
@ApplicationScoped
public class OperatorKey {

    /** The file under the data directory that holds a generated key. */
    public static final String FILE = "admin-key";

    /** The shortest operator key a deployment may set. */
    static final int MIN_LENGTH = 32;

    private static final Logger LOG = Logger.getLogger(OperatorKey.class);

    private final byte[] hash;

    OperatorKey(EngramConfig config) {
        this.hash = utf8(ApiKeys.hash(load(config.adminKey(), Path.of(config.dataDir()))));
    }

    /** Loads the key at start, so that the log names the file before the first request. */
    void onStart(@Observes StartupEvent started) {
        // constructing the bean did the work
    }

    /** Whether a token whose hash is {@code tokenHash} is the operator's key; constant time. */
    boolean matches(String tokenHash) {
        return MessageDigest.isEqual(hash, utf8(tokenHash));
    }

    /** The configured key, or the one kept in (or now written to) {@code dataDir/admin-key}. */
    static String load(Optional<String> configured, Path dataDir) {
        if (configured.isPresent() && !configured.get().isBlank()) {
            String key = configured.get().trim();
            if (key.length() < MIN_LENGTH) {
                throw new IllegalStateException("ENGRAM_ADMIN_KEY is " + key.length() + " characters; an operator "
                        + "key needs at least " + MIN_LENGTH + ". Leave it unset to have Engram generate one.");
            }
            return key;
        }
        Path file = dataDir.resolve(FILE).toAbsolutePath().normalize();
        try {
            Files.createDirectories(file.getParent());
            Optional<String> kept = read(file);
            if (kept.isPresent()) {
                LOG.infof("The operator key is in %s (kept from an earlier start). Send it as Authorization: Bearer "
                        + "<key>; set ENGRAM_ADMIN_KEY to choose it instead.", file);
                return kept.get();
            }
            String key = ApiKeys.generate(new SecureRandom());
            try {
                write(file, key);
            } catch (FileAlreadyExistsException raced) {
                return read(file).orElseThrow(() -> new IllegalStateException(file + " is empty; delete it."));
            }
            LOG.infof("Generated the operator key in %s, readable by this user only. Send it as Authorization: "
                    + "Bearer <key>; set ENGRAM_ADMIN_KEY to choose it instead.", file);
            return key;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not keep the operator key in " + file + " (" + e.getMessage()
                    + "). Set ENGRAM_ADMIN_KEY, or ENGRAM_DATA_DIR to a directory Engram may write.", e);
        }
    }

    private static Optional<String> read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                && Files.getPosixFilePermissions(file).stream().anyMatch(p -> p.name().startsWith("GROUP")
                        || p.name().startsWith("OTHERS"))) {
            LOG.warnf("%s is readable by other users; chmod 600 it.", file);
        }
        String key = Files.readString(file, StandardCharsets.UTF_8).trim();
        if (key.length() < MIN_LENGTH) {
            throw new IllegalStateException(file + " holds no operator key of at least " + MIN_LENGTH
                    + " characters; delete it to have Engram generate a new one.");
        }
        return Optional.of(key);
    }

    /** Creates the file with mode 0600 from the start, so the key is never readable by others, even briefly. */
    private static void write(Path file, String key) throws IOException {
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Set<PosixFilePermission> owner = PosixFilePermissions.fromString("rw-------");
            Files.createFile(file, PosixFilePermissions.asFileAttribute(owner));
        } else {
            Files.createFile(file);
        }
        Files.writeString(file, key + "\n", StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
