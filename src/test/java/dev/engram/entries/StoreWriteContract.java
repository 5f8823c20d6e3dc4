package dev.engram.entries;

import static dev.engram.entries.StoreCases.PROJECT;
import static dev.engram.entries.StoreCases.USER;
import static dev.engram.entries.StoreCases.all;
import static dev.engram.entries.StoreCases.entry;
import static dev.engram.entries.StoreCases.repeat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Scope;
import dev.engram.kernel.TooLarge;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The conformance cases of writing a {@link Store} (part of {@link StoreContract}): Validation, PutGetList and
 * Bounds, after the reference library's storetest.
 */
public interface StoreWriteContract extends StoreUnderTest {

    // ---------------------------------------------------------------------------------------------- Validation

    static Stream<Arguments> invalidEntries() {
        return Stream.of(
                Arguments.of("empty scope", entry(new Scope(""), "a", "x"), "scope-format"),
                Arguments.of("uppercase scope", entry(new Scope("User"), "a", "x"), "scope-format"),
                Arguments.of("scope with a space", entry(new Scope("my scope"), "a", "x"), "scope-format"),
                Arguments.of("scope of 65 bytes", entry(new Scope(repeat('s', 65)), "a", "x"), "scope-format"),
                Arguments.of("empty name", entry(USER, "", "x"), "name-format"),
                Arguments.of("name with a space", entry(USER, "bad name", "x"), "name-format"),
                Arguments.of("name with a leading hyphen", entry(USER, "-lead", "x"), "name-format"),
                Arguments.of("name with a double hyphen", entry(USER, "a--b", "x"), "name-format"),
                Arguments.of("name with an underscore", entry(USER, "snake_case", "x"), "name-format"),
                Arguments.of("name of 65 bytes", entry(USER, repeat('n', 65), "x"), "name-format"),
                Arguments.of("empty content", entry(USER, "a", ""), "content-empty"),
                Arguments.of("content not UTF-8", entry(USER, "a", "half \uD800 a pair"), "content-encoding"),
                Arguments.of("meta key not a name", entry(USER, "a", "x", Map.of("Bad Key", "v")), "meta-key-format"),
                Arguments.of("meta key name", entry(USER, "a", "x", Map.of("name", "v")), "meta-key-reserved"),
                Arguments.of("meta key updated", entry(USER, "a", "x", Map.of("updated", "v")), "meta-key-reserved"),
                Arguments.of("meta value with a line break",
                        entry(USER, "a", "x", Map.of("description", "two\nlines")), "meta-value-line"),
                Arguments.of("meta value with surrounding space",
                        entry(USER, "a", "x", Map.of("description", " padded")), "meta-value-space"),
                Arguments.of("meta over 1 KiB",
                        entry(USER, "a", "x", Map.of("description", repeat('d', 1014))), "meta-size"),
                Arguments.of("content with NUL", entry(USER, "a", "nul\u0000byte"), "content-nul"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.engram.entries.StoreWriteContract#invalidEntries")
    default void validationRefusesAndWritesNothing(String label, Entry invalid, String rule) {
        Store s = newStore();
        Invalid e = assertThrows(Invalid.class, () -> s.put(invalid, PutOptions.NONE));
        assertEquals(rule, e.rule(), label);
        assertTrue(all(s).isEmpty(), "the journal holds nothing after " + label);
        if (invalid.scope().isValid()) {
            assertTrue(s.list(invalid.scope()).isEmpty(), "the scope holds nothing after " + label);
        }
        assertTrue(s.search(List.of(), "", 0).isEmpty(), "no entry is live after " + label);
    }

    @Test
    default void validationRefusesAnInvalidReplacementAndKeepsTheEntry() {
        Store s = newStore();
        Change first = s.put(entry(USER, "style", "Short answers."), PutOptions.NONE).change();
        assertThrows(Invalid.class, () -> s.put(entry(USER, "style", "x", Map.of("name", "y")), PutOptions.NONE));
        assertEquals(first.entry().hash(), s.get(USER, "style").hash());
        assertEquals(1, all(s).size());
    }

    // ---------------------------------------------------------------------------------------------- PutGetList

    @Test
    default void putCreatesThenReplacesAndGetReturnsWhatWasWritten() {
        Store s = newStore();
        Change created = s.put(entry(USER, "style", "Short answers.\n", Map.of("description", "How to answer")),
                PutOptions.NONE).change();
        assertEquals(1, created.seq());
        assertEquals("", created.prev());
        assertEquals("", created.replaced());
        assertEquals(Hash.of("Short answers.\n"), created.entry().hash());
        assertNotNull(created.entry().updated());
        assertFalse(created.entry().deleted());

        Entry got = s.get(USER, "style");
        assertEquals("Short answers.\n", got.content());
        assertEquals(Map.of("description", "How to answer"), got.meta());
        assertEquals(created.entry().hash(), got.hash());
        assertEquals("How to answer", got.description());

        Change replaced = s.put(entry(USER, "style", "Long answers."), PutOptions.NONE).change();
        assertEquals(2, replaced.seq());
        assertEquals(created.entry().hash(), replaced.replaced());
        assertEquals(created.entry().hash(), replaced.prev(), "an unanchored write is based on what the store held");
        assertEquals(Map.of(), s.get(USER, "style").meta(), "put replaces the whole entry, meta included");
    }

    @Test
    default void listReturnsLiveEntriesOfOneScopeByName() {
        Store s = newStore();
        for (String name : List.of("zeta", "a1", "a-b", "beta")) {
            s.put(entry(USER, name, name), PutOptions.NONE);
        }
        s.put(entry(PROJECT, "build", "make"), PutOptions.NONE);
        assertEquals(List.of("a-b", "a1", "beta", "zeta"), s.list(USER).stream().map(Entry::name).toList());
        assertEquals(List.of("build"), s.list(PROJECT).stream().map(Entry::name).toList());
        assertTrue(s.list(new Scope("nobody")).isEmpty(), "an unknown scope lists nothing");
        assertThrows(NotFound.class, () -> s.get(USER, "missing"));
    }

    @Test
    default void listPagesByNameAfterTheCursor() {
        Store s = newStore();
        for (String name : List.of("zeta", "a1", "a-b", "beta", "gamma")) {
            s.put(entry(USER, name, name), PutOptions.NONE);
        }
        s.put(entry(PROJECT, "build", "make"), PutOptions.NONE);
        assertEquals(List.of("a-b", "a1"), s.list(USER, "", 2).stream().map(Entry::name).toList());
        assertEquals(List.of("beta", "gamma"), s.list(USER, "a1", 2).stream().map(Entry::name).toList());
        assertEquals(List.of("zeta"), s.list(USER, "gamma", 2).stream().map(Entry::name).toList());
        assertEquals(List.of("gamma", "zeta"), s.list(USER, "c", 5).stream().map(Entry::name).toList(),
                "the cursor need not be a name the scope holds");
        assertTrue(s.list(USER, "zeta", 2).isEmpty());
    }

    @Test
    default void aQueryOverTheWordOrLengthCapIsRefused() {
        Store s = newStore();
        s.put(entry(USER, "a", "one two"), PutOptions.NONE);
        String sixteen = String.join(" ", java.util.Collections.nCopies(Match.MAX_QUERY_WORDS, "one"));
        assertEquals(1, s.search(List.of(), sixteen, 0).size());
        Invalid words = assertThrows(Invalid.class, () -> s.search(List.of(), sixteen + " two", 0));
        assertEquals("query-words", words.rule());
        assertEquals("query-words", assertThrows(Invalid.class,
                () -> s.searchPage(List.of(), sixteen + " two", 10, 1 << 20)).rule());
        assertEquals("query-length", assertThrows(Invalid.class,
                () -> s.searchPage(List.of(), repeat('o', Match.MAX_QUERY_CHARS + 1), 10, 1 << 20)).rule());
        Invalid length = assertThrows(Invalid.class,
                () -> s.search(List.of(), repeat('o', Match.MAX_QUERY_CHARS + 1), 0));
        assertEquals("query-length", length.rule());
    }

    @Test
    default void listScopesReadsSeveralScopesInTheOrderGiven() {
        Store s = newStore();
        s.put(entry(USER, "b", "2"), PutOptions.NONE);
        s.put(entry(USER, "a", "1"), PutOptions.NONE);
        s.put(entry(PROJECT, "build", "make"), PutOptions.NONE);
        s.put(entry(new Scope("env"), "os", "linux"), PutOptions.NONE);
        Map<Scope, List<Entry>> lists = s.listScopes(List.of(USER, new Scope("empty"), PROJECT));
        assertEquals(List.of(USER, new Scope("empty"), PROJECT), List.copyOf(lists.keySet()));
        assertEquals(List.of("a", "b"), lists.get(USER).stream().map(Entry::name).toList());
        assertTrue(lists.get(new Scope("empty")).isEmpty());
        Map<Scope, List<Entry>> every = s.listScopes(List.of());
        assertEquals(List.of(new Scope("env"), PROJECT, USER), List.copyOf(every.keySet()), "every scope, by name");
    }

    @Test
    default void contentRoundTripsByteForByte() {
        Store s = newStore();
        String content = "Neovim, dark theme — süß ✓ 日本 😀\n\n#### Build\n\ttabs and  spaces  \r\n";
        s.put(entry(USER, "editor", content), PutOptions.NONE);
        assertEquals(content, s.get(USER, "editor").content());
        assertEquals(Hash.of(content), s.get(USER, "editor").hash());
    }

    // ---------------------------------------------------------------------------------------------- Bounds

    @Test
    default void contentAtTheBoundFitsAndOneByteMoreIsRefusedWithTheNumbers() {
        Store s = newStore(16);
        assertEquals(16, s.maxEntryBytes());
        s.put(entry(USER, "fits", repeat('a', 13) + "é"), PutOptions.NONE); // 13 + 2 = 15 bytes
        s.put(entry(USER, "fits", repeat('a', 16)), PutOptions.NONE);
        TooLarge e = assertThrows(TooLarge.class,
                () -> s.put(entry(USER, "fits", repeat('a', 15) + "é"), PutOptions.NONE));
        assertEquals(17, e.size());
        assertEquals(16, e.limit());
        assertEquals(16, e.stored());
        TooLarge fresh = assertThrows(TooLarge.class, () -> s.put(entry(USER, "new", repeat('b', 20)), PutOptions.NONE));
        assertEquals(-1, fresh.stored(), "no live entry is -1");
        assertEquals(2, all(s).size(), "refused writes are not journaled");
        assertEquals(repeat('a', 16), s.get(USER, "fits").content());
        assertThrows(NotFound.class, () -> s.get(USER, "new"));
    }

    @Test
    default void namesAndMetaAtTheirBoundsFit() {
        Store s = newStore();
        String longest = repeat('n', EntryRules.MAX_NAME_BYTES);
        s.put(entry(new Scope(repeat('s', 64)), longest, "x"), PutOptions.NONE);
        s.put(entry(USER, "meta", "x", Map.of("description", repeat('d', 1024 - 11))), PutOptions.NONE);
        assertEquals(2, all(s).size());
    }
}
