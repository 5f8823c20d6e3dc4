package dev.engram.stores.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.entries.Change;
import dev.engram.entries.Entry;
import dev.engram.kernel.ArchiveRefused;
import dev.engram.kernel.Scope;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The reference store's file format (docs/filestore-format.md of the reference library, its examples copied to
 * src/test/resources/filestore-format): every journal line, the entry file, the index and the cursor of the worked
 * example are what Engram reads and writes, byte for byte.
 */
class FilestoreFormatTest {

    static String example(String file) throws IOException {
        try (InputStream in = FilestoreFormatTest.class.getResourceAsStream("/filestore-format/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static List<Change> journal() throws IOException {
        return example("memory/journal.jsonl").lines().map(l -> JournalLine.read(l).orElseThrow()).toList();
    }

    @Test
    void everyJournalLineIsReadAndWrittenBackByteForByte() throws IOException {
        List<String> lines = example("memory/journal.jsonl").lines().toList();
        assertEquals(6, lines.size());
        for (String line : lines) {
            assertEquals(line, JournalLine.write(JournalLine.read(line).orElseThrow()));
        }
        Change reconciled = journal().get(4);
        assertEquals("reconciled", reconciled.source());
        assertEquals(Instant.parse("2026-09-20T10:00:03.5Z"), reconciled.entry().updated());
        assertTrue(journal().get(5).entry().deleted());
    }

    @Test
    void theEntryFileIsWrittenAndReadAsTheReferenceHasIt() throws IOException {
        String file = example("memory/user/style.md");
        EntryFile.Read read = EntryFile.read("user/style.md", Scope.of("user"), "style", file);
        assertEquals("Prefers short answers and tabs. Lives in Bristol.\n", read.draft().content());
        assertEquals(Map.of("description", "How to answer", "type", "feedback"), read.draft().meta());
        assertEquals(Optional.of(Instant.parse("2026-09-20T10:00:03Z")), read.updated());
        Entry live = read.draft().stored(read.updated().get());
        assertEquals(file, EntryFile.write(live));
    }

    @Test
    void theIndexAndTheCursorAreTheReferences() throws IOException {
        Entry style = EntryFile.read("user/style.md", Scope.of("user"), "style", example("memory/user/style.md"))
                .draft().stored(Instant.parse("2026-09-20T10:00:03Z"));
        ScopeIndex index = new ScopeIndex("user");
        index.add(style);
        assertEquals(example("memory/user/INDEX.md"), index.text());
        assertEquals("# project\n\nNo entries.\n", new ScopeIndex("project").text());

        Path file = Files.createTempFile("journal", ".jsonl");
        try (JournalFile j = new JournalFile(file)) {
            for (Change c : journal()) {
                j.add(c);
            }
            j.close();
            assertEquals(example("memory/journal.jsonl"), Files.readString(file));
            StateFile state = new StateFile();
            state.add(style);
            assertEquals(example("memory/.state.json"), state.text(j));
        } finally {
            Files.delete(file);
        }
    }

    @Test
    void aTornTailAndADamagedLineAreNotRecords() throws IOException {
        List<String> torn = example("torn-after/journal.jsonl").lines().toList();
        assertTrue(JournalLine.read(torn.get(0)).isPresent());
        assertFalse(JournalLine.read(torn.get(1)).isPresent());
        assertEquals("notes", JournalLine.read(torn.get(2)).orElseThrow().entry().name());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "2026-09-20T10:00:00Z|2026-09-20T10:00:00Z",
        "2026-09-20T10:00:03.500Z|2026-09-20T10:00:03.5Z",
        "2026-09-20T10:00:00.123456789Z|2026-09-20T10:00:00.123456789Z",
        "2026-09-20T10:00:00.000120Z|2026-09-20T10:00:00.00012Z"})
    void timesAreGoRfc3339Nano(String in, String out) {
        assertEquals(out, GoJson.time(Instant.parse(in)));
    }

    @Test
    void stringsAreEscapedAsGoEscapesThem() {
        assertEquals("\"a\\u003cb\\u003e \\u0026 \\u2028 \\n\\t\\u0001 süß\"",
                GoJson.quote(new StringBuilder(), "a<b> & \u2028 \n\t\u0001 süß").toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "---\\nname: style\\n|frontmatter-unclosed",
        "---\\nno colon here\\n---\\nx|frontmatter-line",
        "---\\nname: other\\n---\\nx|frontmatter-name",
        "---\\nupdated: yesterday\\n---\\nx|frontmatter-updated",
        "---\\nBad_Key: v\\n---\\nx|meta-key",
        "---\\na: 1\\na: 2\\n---\\nx|frontmatter-duplicate"})
    void aMalformedFrontmatterIsRefusedNamingTheFile(String text, String rule) {
        ArchiveRefused e = assertThrows(ArchiveRefused.class, () -> EntryFile.read("user/style.md",
                Scope.of("user"), "style", text.replace("\\n", "\n")));
        assertEquals(rule, e.rule());
        assertEquals("user/style.md", e.member());
    }

    @Test
    void aFileWithoutFrontmatterIsAllContent() {
        EntryFile.Read r = EntryFile.read("user/a.md", Scope.of("user"), "a", "Just text.\n");
        assertEquals("Just text.\n", r.draft().content());
        assertTrue(r.draft().meta().isEmpty());
    }
}
