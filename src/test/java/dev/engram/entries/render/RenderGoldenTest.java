package dev.engram.entries.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.entries.Entry;
import dev.engram.entries.InMemoryStore;
import dev.engram.entries.PutOptions;
import dev.engram.kernel.Scope;
import dev.engram.entries.Store;
import dev.engram.kernel.Utf8;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The nine reference render cases, byte for byte: the block, its parts (ID and length) and the manifest JSON. The
 * stores are rebuilt from the reference test's case list.
 */
class RenderGoldenTest {

    static final Scope USER = new Scope("user");
    static final Scope PROJECT = new Scope("project");

    /** One case: the store's entries and entry limit, the scopes, and the bounds. */
    record Case(String name, List<Scope> scopes, int maxTotal, int limit, List<Entry> entries,
            Map<Scope, Integer> caps) {

        @Override
        public String toString() {
            return name;
        }
    }

    /** Content of exactly n bytes of one letter, ending in a newline. */
    static String filler(int n, char c) {
        return String.valueOf(c).repeat(n - 1) + "\n";
    }

    static Entry e(Scope scope, String name, String content) {
        return Entry.draft(scope, name, content, Map.of());
    }

    static Entry e(Scope scope, String name, String content, String description) {
        return Entry.draft(scope, name, content, Map.of("description", description));
    }

    static List<Entry> numbered(String scope, int n, int size) {
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(e(new Scope(scope), String.format("%s-%02d", scope, i), filler(size, (char) ('a' + i))));
        }
        return out;
    }

    static List<Entry> manySmall(int n) {
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(e(USER, String.format("note-%02d", i), "Fact " + i + ".\n", "What fact " + i + " is for"));
        }
        return out;
    }

    static Stream<Case> cases() {
        List<Entry> scopeCap = new ArrayList<>(numbered("environment", 8, 60));
        scopeCap.addAll(numbered("user", 2, 40));
        return Stream.of(
                new Case("empty", List.of(USER, PROJECT), 0, 0, List.of(), Map.of()),
                new Case("no-scopes", List.of(), 0, 0, List.of(e(USER, "unseen", "not rendered")), Map.of()),
                new Case("one-scope", List.of(USER), 0, 0, List.of(
                        Entry.draft(USER, "style", "Short answers.\n\nCode in Go.\n",
                                Map.of("description", "How the user likes answers", "type", "feedback")),
                        e(USER, "timezone", "Europe/London"),
                        e(PROJECT, "unlisted", "not in the scopes")), Map.of()),
                new Case("two-scopes", List.of(USER, PROJECT), 0, 0, List.of(
                        e(USER, "editor", "Neovim, dark theme — süß ✓ 日本\n", "Editor"),
                        e(PROJECT, "build", "#### Build\n\nRun `make check` before a commit.\n")), Map.of()),
                new Case("at-bound", List.of(USER), 1024, 256, List.of(
                        e(USER, "a", filler(256, 'a')), e(USER, "b", filler(256, 'b')),
                        e(USER, "c", filler(256, 'c')), e(USER, "d", filler(256, 'd'))), Map.of()),
                new Case("omitted", List.of(USER, PROJECT, new Scope("empty")), 1000, 256, List.of(
                        e(USER, "a", filler(256, 'a')), e(USER, "b", filler(256, 'b')),
                        e(USER, "c", filler(256, 'c'), "The last one shown"),
                        e(USER, "d", filler(256, 'd'), "Does not fit"),
                        e(USER, "e", filler(100, 'e')),
                        e(PROJECT, "build", "make check\n")), Map.of()),
                new Case("skipped", List.of(USER), 900, 512, List.of(
                        e(USER, "architecture-notes", filler(512, 'n'), "Long"),
                        e(USER, "bristol", "Lives in Bristol.\n"),
                        e(USER, "more-notes", filler(500, 'm')),
                        e(USER, "zz-passport", "In the top drawer.\n")), Map.of()),
                new Case("many-small", List.of(USER), 700, 256, manySmall(12), Map.of()),
                new Case("scope-cap", List.of(new Scope("environment"), USER), 1000, 256, scopeCap,
                        Map.of(new Scope("environment"), 400)));
    }

    static Rendered render(Case c) {
        Store store = new InMemoryStore("golden", c.limit() > 0 ? c.limit() : 4096);
        for (Entry e : c.entries()) {
            store.put(e, PutOptions.NONE);
        }
        RenderOptions options = RenderOptions.DEFAULT;
        if (c.maxTotal() > 0) {
            options = options.maxTotalBytes(c.maxTotal());
        }
        for (Map.Entry<Scope, Integer> cap : c.caps().entrySet()) {
            options = options.scopeCap(cap.getKey(), cap.getValue());
        }
        return Render.render(store, c.scopes(), options);
    }

    static String golden(String file) throws IOException {
        try (InputStream in = RenderGoldenTest.class.getResourceAsStream("/golden/render/" + file)) {
            if (in == null) {
                return null;
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void blockIsTheReferenceBytes(Case c) throws IOException {
        assertEquals(golden(c.name() + ".md"), render(c).block());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void partsAreTheReferenceIdsAndLengths(Case c) throws IOException {
        StringBuilder parts = new StringBuilder();
        for (Part p : render(c).parts()) {
            parts.append(p.id()).append(' ').append(Utf8.length(p.text())).append('\n');
        }
        assertEquals(golden(c.name() + ".parts"), parts.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void manifestIsTheReferenceJson(Case c) throws IOException {
        String expected = golden(c.name() + ".manifest.json");
        if (expected == null) {
            expected = "{\n  \"entries\": []\n}\n";
        }
        Rendered r = render(c);
        assertEquals(expected, r.manifest().recordIndented() + "\n");
        assertEquals(r.manifest(), Manifest.apply(Manifest.EMPTY, expected), "the golden manifest reads back");
        assertTrue(Utf8.length(r.block()) <= (c.maxTotal() > 0 ? c.maxTotal() : RenderOptions.DEFAULT_MAX_TOTAL_BYTES));
    }
}
