package dev.engram.persistence;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * The migrations this build ships, versioned ({@code db/migration/V<version>__<name>.sql}, keyed by version) and
 * repeatable ({@code db/migration/R__<name>.sql}, keyed by their file name, as Flyway's history names them in
 * {@code script}), each with the checksum Flyway records for it: a CRC32 over the script's lines without their line
 * breaks (and without a byte order mark). Found next to the first migration, in a jar or a directory; anywhere else
 * (a native image) they cannot be listed, and the caller runs Flyway.
 */
final class ShippedMigrations {

    static final String DIRECTORY = "db/migration/";
    /** A migration every build has; the others are listed where it is. */
    static final String FIRST = DIRECTORY + "V1__stores_entries_journal.sql";
    private static final Pattern NAME = Pattern.compile("V([0-9]+(?:[._][0-9]+)*)__[^/]*\\.sql");
    private static final Pattern REPEATABLE = Pattern.compile("R__[^/]+\\.sql");

    private ShippedMigrations() {
    }

    /**
     * Version (or, for a repeatable migration, file name) to checksum, or empty when the migrations cannot be listed
     * here.
     */
    static Optional<Map<String, Integer>> read(ClassLoader loader) {
        URL first = loader.getResource(FIRST);
        if (first == null) {
            return Optional.empty();
        }
        Map<String, Integer> shipped = new TreeMap<>();
        try {
            if ("jar".equals(first.getProtocol())) {
                JarURLConnection connection = (JarURLConnection) first.openConnection();
                connection.setUseCaches(false);
                try (JarFile jar = new JarFile(Path.of(connection.getJarFileURL().toURI()).toFile())) {
                    for (var entry : jar.stream().toList()) {
                        String version = key(entry.getName());
                        if (version != null) {
                            try (InputStream in = jar.getInputStream(entry)) {
                                shipped.put(version, checksum(in));
                            }
                        }
                    }
                }
            } else if ("file".equals(first.getProtocol())) {
                Path dir = Path.of(first.toURI()).getParent();
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path file : files.toList()) {
                        String version = key(DIRECTORY + file.getFileName());
                        if (version != null) {
                            try (InputStream in = Files.newInputStream(file)) {
                                shipped.put(version, checksum(in));
                            }
                        }
                    }
                }
            } else {
                return Optional.empty();
            }
        } catch (IOException | URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
        return shipped.isEmpty() ? Optional.empty() : Optional.of(shipped);
    }

    /** The key of a migration's path: its version, or for a repeatable migration its file name; null for neither. */
    static String key(String path) {
        String version = version(path);
        return version != null ? version : repeatable(path);
    }

    /** Whether {@code key}, as {@link #read} lists it, is a repeatable migration's. */
    static boolean isRepeatable(String key) {
        return key.startsWith("R__");
    }

    /** The file name of a repeatable migration's path ({@code R__x.sql}), as Flyway's history has it, or null. */
    static String repeatable(String path) {
        if (!path.startsWith(DIRECTORY) || path.indexOf('/', DIRECTORY.length()) >= 0) {
            return null;
        }
        String name = path.substring(DIRECTORY.length());
        return REPEATABLE.matcher(name).matches() ? name : null;
    }

    /** The version a migration's path names, as Flyway records it ({@code V1_2__x.sql}: 1.2), or null. */
    static String version(String path) {
        if (!path.startsWith(DIRECTORY) || path.indexOf('/', DIRECTORY.length()) >= 0) {
            return null;
        }
        Matcher m = NAME.matcher(path.substring(DIRECTORY.length()));
        return m.matches() ? m.group(1).replace('_', '.') : null;
    }

    /** Flyway's checksum of a script: each line's UTF-8 bytes into one CRC32, line breaks and a BOM left out. */
    static int checksum(InputStream script) throws IOException {
        CRC32 crc = new CRC32();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(script, StandardCharsets.UTF_8))) {
            String line = lines.readLine();
            if (line != null && line.startsWith("\uFEFF")) {
                line = line.substring(1);
            }
            while (line != null) {
                crc.update(line.getBytes(StandardCharsets.UTF_8));
                line = lines.readLine();
            }
        }
        return (int) crc.getValue();
    }
}
