package dev.engram.access.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.access.ApiKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator key at start: the configured one, or one generated into the data directory and kept there. */
class OperatorKeyTest {

    @TempDir
    Path dir;

    @Test
    void withoutAConfiguredKeyOneIsGeneratedReadableByItsOwnerOnlyAndKept() throws Exception {
        Path data = dir.resolve("not-yet-made");
        String key = OperatorKey.load(Optional.empty(), data);
        Path file = data.resolve("admin-key");
        assertTrue(ApiKeys.hasKeyForm(key), key);
        assertEquals(key, Files.readString(file).trim());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals(key, OperatorKey.load(Optional.empty(), data), "the next start keeps it");
        assertEquals(key, OperatorKey.load(Optional.of(" "), data), "a blank setting is no setting");
    }

    @Test
    void aConfiguredKeyIsTakenAndNoFileIsWritten() {
        String key = "configured-operator-key-0123456789-abcdef";
        assertEquals(key, OperatorKey.load(Optional.of(key), dir));
        assertFalse(Files.exists(dir.resolve("admin-key")));
    }

    @Test
    void aShortConfiguredKeyIsRefusedAtStart() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> OperatorKey.load(Optional.of("secret"), dir));
        assertTrue(e.getMessage().contains("at least 32"), e.getMessage());
        assertFalse(e.getMessage().contains("secret\""), "the message does not echo the key");
    }

    @Test
    void aDataDirectoryThatCannotBeWrittenSaysWhatToSet() throws Exception {
        Path file = dir.resolve("a-file");
        Files.writeString(file, "x");
        Exception e = assertThrows(RuntimeException.class, () -> OperatorKey.load(Optional.empty(), file));
        assertTrue(e.getMessage().contains("ENGRAM_ADMIN_KEY"), e.getMessage());
    }
}
