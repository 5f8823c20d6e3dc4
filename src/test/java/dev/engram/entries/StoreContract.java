package dev.engram.entries;

import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Conflict;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Paged;
import dev.engram.kernel.Scope;
import dev.engram.kernel.TooLarge;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The conformance suite every {@link Store} passes, after the reference library's storetest: Validation,
 * PutGetList, Bounds, IfHash (here IfVersion, which covers meta too), Forget, Journal, LostUpdates, Search,
 * Concurrent and Persistence. A store's test
 * extends it and says how to make an empty store and how to reopen one.
 */
public abstract class StoreContract {

    protected static final Scope USER = new Scope("user");
    protected static final Scope PROJECT = new Scope("project");

    /** A new, empty store with the content bound {@code maxEntryBytes}. */
    protected abstract Store newStore(int maxEntryBytes);

    /** The same store as a new process would open it, or null when the store does not outlive its object. */
    protected abstract Store reopen(Store store);

    protected Store newStore() {
        return newStore(EntryRules.DEFAULT_MAX_ENTRY_BYTES);
    }

    static Entry entry(Scope scope, String name, String content) {
        return Entry.draft(scope, name, content, Map.of());
    }

    static Entry entry(Scope scope, String name, String content, Map<String, String> meta) {
        return Entry.draft(scope, name, content, meta);
    }

    /** The whole journal; a store of entries alone holds only their records. */
    static List<Change> all(Store s) {
        return s.journal(0, 0).stream().map(Change.class::cast).toList();
    }

    static String repeat(char c, int n) {
        return String.valueOf(c).repeat(n);
    }

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
    @MethodSource("invalidEntries")
    void validationRefusesAndWritesNothing(String label, Entry invalid, String rule) {
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
    void validationRefusesAnInvalidReplacementAndKeepsTheEntry() {
        Store s = newStore();
        Change first = s.put(entry(USER, "style", "Short answers."), PutOptions.NONE).change();
        assertThrows(Invalid.class, () -> s.put(entry(USER, "style", "x", Map.of("name", "y")), PutOptions.NONE));
        assertEquals(first.entry().hash(), s.get(USER, "style").hash());
        assertEquals(1, all(s).size());
    }

    // ---------------------------------------------------------------------------------------------- PutGetList

    @Test
    void putCreatesThenReplacesAndGetReturnsWhatWasWritten() {
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
    void listReturnsLiveEntriesOfOneScopeByName() {
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
    void listPagesByNameAfterTheCursor() {
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
    void aQueryOverTheWordOrLengthCapIsRefused() {
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
    void listScopesReadsSeveralScopesInTheOrderGiven() {
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
    void contentRoundTripsByteForByte() {
        Store s = newStore();
        String content = "Neovim, dark theme — süß ✓ 日本 😀\n\n#### Build\n\ttabs and  spaces  \r\n";
        s.put(entry(USER, "editor", content), PutOptions.NONE);
        assertEquals(content, s.get(USER, "editor").content());
        assertEquals(Hash.of(content), s.get(USER, "editor").hash());
    }

    // ---------------------------------------------------------------------------------------------- Bounds

    @Test
    void contentAtTheBoundFitsAndOneByteMoreIsRefusedWithTheNumbers() {
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
    void namesAndMetaAtTheirBoundsFit() {
        Store s = newStore();
        String longest = repeat('n', EntryRules.MAX_NAME_BYTES);
        s.put(entry(new Scope(repeat('s', 64)), longest, "x"), PutOptions.NONE);
        s.put(entry(USER, "meta", "x", Map.of("description", repeat('d', 1024 - 11))), PutOptions.NONE);
        assertEquals(2, all(s).size());
    }

    // ---------------------------------------------------------------------------------------------- IfVersion

    @Test
    void ifVersionEmptyCreatesOnlyWhenAbsent() {
        Store s = newStore();
        Change c = s.put(entry(USER, "a", "one"), PutOptions.NONE.ifVersion("")).change();
        assertEquals("", c.prev());
        Conflict e = assertThrows(Conflict.class, () -> s.put(entry(USER, "a", "two"), PutOptions.NONE.ifVersion("")));
        assertEquals("", e.want());
        assertEquals(c.entry().version(), e.have());
        assertEquals("one", s.get(USER, "a").content());
        assertEquals(1, all(s).size());
    }

    @Test
    void ifVersionWritesOnlyOnTheExpectedState() {
        Store s = newStore();
        Entry first = s.put(entry(USER, "a", "one"), PutOptions.NONE).change().entry();
        String v1 = first.version();
        Change c2 = s.put(entry(USER, "a", "two"), PutOptions.NONE.ifVersion(v1)).change();
        assertEquals(first.hash(), c2.prev(), "the journal chains content hashes");
        assertEquals(first.hash(), c2.replaced());
        Conflict e = assertThrows(Conflict.class,
                () -> s.put(entry(USER, "a", "three"), PutOptions.NONE.ifVersion(v1)));
        assertEquals(v1, e.want());
        assertEquals(c2.entry().version(), e.have());
        Conflict missing = assertThrows(Conflict.class,
                () -> s.put(entry(USER, "b", "new"), PutOptions.NONE.ifVersion(v1)));
        assertEquals("", missing.have());
        assertEquals("two", s.get(USER, "a").content());
        assertEquals(2, all(s).size(), "a failed precondition writes nothing");
        assertEquals(2, all(s).get(1).seq());
    }

    @Test
    void theVersionCoversMetaSoAMetaOnlyChangeFailsAnOlderPrecondition() {
        Store s = newStore();
        Map<String, String> before = Map.of("description", "Süß — ✓", "type", "feedback");
        Map<String, String> after = Map.of("description", "Süß — ✓", "type", "rule", "a-first", "x");
        Entry first = s.put(entry(USER, "a", "one", before), PutOptions.NONE).change().entry();
        Entry second = s.put(entry(USER, "a", "one", after), PutOptions.NONE).change().entry();
        assertEquals(first.hash(), second.hash(), "the content hash is the content's alone");
        assertFalse(first.version().equals(second.version()), "the version moves with the meta");
        assertEquals(second.version(), s.get(USER, "a").version());
        assertThrows(Conflict.class, () -> s.put(entry(USER, "a", "two", before), PutOptions.NONE.ifVersion(
                first.version())));
        assertThrows(Conflict.class, () -> s.forget(USER, "a", PutOptions.NONE.ifVersion(first.version())));
        assertThrows(Conflict.class, () -> s.put(entry(USER, "a", "two"), PutOptions.NONE.ifVersion(first.hash())),
                "a content hash is not a version");
        assertEquals(after, s.get(USER, "a").meta());
        s.put(entry(USER, "a", "two", after), PutOptions.NONE.ifVersion(second.version()));
        assertEquals("two", s.get(USER, "a").content());
    }

    @Test
    void aPatchKeepsAMetaChangeThatLandedBetweenItsReadAndItsWrite() {
        Store s = newStore();
        s.put(entry(USER, "a", "Short answers.", Map.of("description", "How")), PutOptions.NONE);
        Store racing = new RacingStore(s, () -> s.put(entry(USER, "a", "Short answers.",
                Map.of("description", "How to answer")), PutOptions.NONE.session("other")));
        new Patch("Short", "Brief").applyTo(racing, USER, "a", PutOptions.NONE, java.time.Duration.ofSeconds(5));
        assertEquals("Brief answers.", s.get(USER, "a").content());
        assertEquals(Map.of("description", "How to answer"), s.get(USER, "a").meta(), "the other session's meta stays");
    }

    @Test
    void basedOnRecordsTheBaseWithoutRefusing() {
        Store s = newStore();
        String h1 = s.put(entry(USER, "a", "one"), PutOptions.NONE).change().entry().hash();
        s.put(entry(USER, "a", "two"), PutOptions.NONE);
        Change c = s.put(entry(USER, "a", "three"), PutOptions.NONE.basedOn(h1)).change();
        assertEquals(h1, c.prev());
        assertEquals(Hash.of("two"), c.replaced());
        assertEquals("three", s.get(USER, "a").content());
    }

    @Test
    void aPatchWithoutAPreconditionLandsHoweverOftenItMeetsAConcurrentWrite() {
        Store s = newStore();
        s.put(entry(USER, "log", "alpha: todo\n"), PutOptions.NONE);
        Store racing = new RacingStore(s, 12, () -> s.put(entry(USER, "log", s.get(USER, "log").content() + "x\n"),
                PutOptions.NONE.session("other")));
        new Patch("alpha: todo", "alpha: done").applyTo(racing, USER, "log", PutOptions.NONE, Patch.DEFAULT_DEADLINE);
        assertEquals("alpha: done\n" + "x\n".repeat(12), s.get(USER, "log").content(), "every write is kept");
    }

    // ---------------------------------------------------------------------------------------------- Forget

    @Test
    void forgetWritesATombstoneThatKeepsTheLastContent() {
        Store s = newStore();
        Change put = s.put(entry(USER, "editor", "Uses neovim.\n", Map.of("description", "Editor")), PutOptions.NONE).change();
        Change gone = s.forget(USER, "editor", PutOptions.NONE.session("slack-7f3a")).change();
        assertEquals(2, gone.seq());
        assertTrue(gone.entry().deleted());
        assertEquals("Uses neovim.\n", gone.entry().content());
        assertEquals(Map.of("description", "Editor"), gone.entry().meta());
        assertEquals(put.entry().hash(), gone.entry().hash());
        assertEquals(put.entry().hash(), gone.prev());
        assertEquals(put.entry().hash(), gone.replaced());
        assertEquals("slack-7f3a", gone.session());
        assertThrows(NotFound.class, () -> s.get(USER, "editor"));
        assertTrue(s.list(USER).isEmpty());
        assertTrue(all(s).get(1).entry().deleted());

        Change again = s.put(entry(USER, "editor", "Uses helix.\n"), PutOptions.NONE).change();
        assertEquals("", again.replaced(), "a write after a tombstone creates");
    }

    @Test
    void forgetOfAMissingEntryIsNotFoundAndWritesNothing() {
        Store s = newStore();
        assertThrows(NotFound.class, () -> s.forget(USER, "never", PutOptions.NONE));
        s.put(entry(USER, "a", "one"), PutOptions.NONE);
        s.forget(USER, "a", PutOptions.NONE);
        assertThrows(NotFound.class, () -> s.forget(USER, "a", PutOptions.NONE));
        assertEquals(2, all(s).size());
    }

    @Test
    void forgetHonoursIfHash() {
        Store s = newStore();
        s.put(entry(USER, "a", "one"), PutOptions.NONE);
        String version = s.get(USER, "a").version();
        Conflict e = assertThrows(Conflict.class, () -> s.forget(USER, "a", PutOptions.NONE.ifVersion(
                Hash.version(Hash.of("zero"), Map.of()))));
        assertEquals(version, e.have());
        assertEquals("one", s.get(USER, "a").content());
        s.forget(USER, "a", PutOptions.NONE.ifVersion(version));
        assertThrows(NotFound.class, () -> s.get(USER, "a"));
    }

    // ---------------------------------------------------------------------------------------------- Journal

    @Test
    void journalReadsAfterTheCursorExclusively() {
        Store s = newStore();
        for (int i = 1; i <= 5; i++) {
            s.put(entry(USER, "n" + i, "v" + i), PutOptions.NONE);
        }
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), all(s).stream().map(Change::seq).toList());
        assertEquals(List.of(3L, 4L, 5L), s.journal(2, 0).stream().map(JournalRecord::seq).toList());
        assertEquals(List.of(3L, 4L), s.journal(2, 2).stream().map(JournalRecord::seq).toList());
        assertTrue(s.journal(5, 0).isEmpty());
        assertTrue(s.journal(99, 10).isEmpty());
    }

    @Test
    void journalReturnsCopies() {
        Store s = newStore();
        s.put(entry(USER, "a", "one", Map.of("description", "d")), PutOptions.NONE);
        List<Change> read = all(s);
        try {
            read.clear();
        } catch (UnsupportedOperationException expected) {
            // an unmodifiable copy is a copy too
        }
        assertThrows(UnsupportedOperationException.class, () -> all(s).get(0).entry().meta().put("k", "v"));
        assertEquals(1, all(s).size());
        assertEquals(Map.of("description", "d"), all(s).get(0).entry().meta());
        Map<String, String> meta = new HashMap<>(Map.of("description", "mine"));
        s.put(entry(USER, "b", "two", meta), PutOptions.NONE);
        meta.put("description", "changed after the write");
        assertEquals("mine", s.get(USER, "b").description(), "the store keeps its own copy of what it was given");
    }

    @Test
    void journalRecordsTheSessionThatWrote() {
        Store s = newStore();
        s.put(entry(USER, "a", "one"), PutOptions.NONE.session("slack-7f3a"));
        s.put(entry(USER, "a", "two"), PutOptions.NONE);
        s.forget(USER, "a", PutOptions.NONE.session("telegram-c91e"));
        assertEquals(List.of("slack-7f3a", "", "telegram-c91e"), all(s).stream().map(Change::session).toList());
        assertEquals(List.of("", "", ""), all(s).stream().map(Change::source).toList());
    }

    @Test
    void putReturnsTheRecordTheJournalHolds() {
        Store s = newStore();
        Change returned = s.put(entry(USER, "a", "one", Map.of("type", "fact")), PutOptions.NONE.session("s1")).change();
        Change journaled = all(s).get(0);
        assertEquals(returned, journaled);
        Change forgotten = s.forget(USER, "a", PutOptions.NONE).change();
        assertEquals(forgotten, all(s).get(1));
    }

    // ---------------------------------------------------------------------------------------------- Byte-bounded pages

    @Test
    void aListPageEndsBeforeTheEntryThatWouldTakeItOverTheByteBound() {
        Store s = newStore();
        for (String name : List.of("a", "b", "c", "d", "e")) {
            s.put(entry(USER, name, repeat('x', 100)), PutOptions.NONE);
        }
        List<String> names = new java.util.ArrayList<>();
        String after = "";
        int pages = 0;
        while (true) {
            Paged<Entry> page = s.listPage(USER, after, 10, 250);
            assertEquals(pages < 2 ? 2 : 1, page.items().size(), "page " + pages);
            page.items().forEach(e -> names.add(e.name()));
            pages++;
            if (!page.more()) {
                break;
            }
            after = page.items().get(page.items().size() - 1).name();
        }
        assertEquals(List.of("a", "b", "c", "d", "e"), names);
        Paged<Entry> tight = s.listPage(USER, "", 10, 50);
        assertEquals(List.of("a"), tight.items().stream().map(Entry::name).toList(), "the first is always sent");
        assertTrue(tight.more());
        assertEquals(3, s.listPage(USER, "", 3, 1 << 20).items().size(), "the item bound still holds");
        assertFalse(s.listPage(USER, "b", 3, 1 << 20).more());
    }

    @Test
    void aJournalPageEndsBeforeTheRecordThatWouldTakeItOverTheByteBound() {
        Store s = newStore();
        for (String name : List.of("a", "b", "c", "d", "e")) {
            s.put(entry(USER, name, repeat('x', 100)), PutOptions.NONE);
        }
        s.forget(USER, "a", PutOptions.NONE);
        List<Long> seqs = new java.util.ArrayList<>();
        long cursor = 0;
        while (true) {
            Paged<JournalRecord> page = s.journalPage(cursor, 10, 250);
            assertTrue(page.items().stream().mapToLong(JournalRecord::bytes).sum() <= 250);
            for (JournalRecord c : page.items()) {
                seqs.add(c.seq());
                cursor = c.seq();
            }
            if (!page.more()) {
                break;
            }
        }
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), seqs);
        assertEquals(1, s.journalPage(0, 10, 1).items().size(), "the first is always sent");
    }

    @Test
    void aSearchEndsBeforeTheHitThatWouldTakeItOverTheByteBound() {
        Store s = newStore();
        for (String name : List.of("a", "b", "c", "d", "e")) {
            s.put(entry(USER, name, "needle " + repeat('x', 93)), PutOptions.NONE);
        }
        Paged<Entry> bounded = s.searchPage(List.of(), "needle", 10, 250);
        assertEquals(List.of("a", "b"), bounded.items().stream().map(Entry::name).toList());
        assertTrue(bounded.more(), "a search cut at the bound says so");
        Paged<Entry> scoped = s.searchPage(List.of(USER), "needle", 10, 250);
        assertEquals(List.of("a", "b"), scoped.items().stream().map(Entry::name).toList());
        Paged<Entry> tight = s.searchPage(List.of(), "needle", 10, 1);
        assertEquals(List.of("a"), tight.items().stream().map(Entry::name).toList(), "the first is always sent");
        Paged<Entry> all = s.searchPage(List.of(), "needle", 10, 1 << 20);
        assertEquals(5, all.items().size());
        assertFalse(all.more());
        assertFalse(s.searchPage(List.of(), "needle", 3, 1 << 20).more(), "the limit is not the bound");
    }

    @Test
    void aLostUpdatesPageEndsAtTheByteBound() {
        Store s = newStore();
        String base = s.put(entry(USER, "a", "one"), PutOptions.NONE).change().entry().hash();
        for (int i = 0; i < 4; i++) {
            s.put(entry(USER, "a", repeat((char) ('p' + i), 100)), PutOptions.NONE.basedOn(base));
        }
        LostUpdates.Page first = LostUpdates.page(s, 0, 0, 10, 250);
        assertEquals(2, first.lost().size());
        assertTrue(first.more());
        LostUpdates.Page rest = LostUpdates.page(s, 0, first.next(), 10, 250);
        assertEquals(1, rest.lost().size());
        assertFalse(rest.more());
        assertEquals(3, LostUpdates.find(s, 0).size());
    }

    // ---------------------------------------------------------------------------------------------- LostUpdates

    @Test
    void lostUpdatesReportsTheSecondOfTwoWritesBuiltOnOneRead() {
        Store s = newStore();
        String base = s.put(entry(USER, "style", "Prefers short answers.\n"), PutOptions.NONE.session("a"))
                .change().entry().hash();
        Change first = s.put(entry(USER, "style", "Short answers & tabs.\n"), PutOptions.NONE.basedOn(base).session("b")).change();
        Change second = s.put(entry(USER, "style", "Short answers. Bristol.\n"),
                PutOptions.NONE.basedOn(base).session("a")).change();
        List<LostUpdate> lost = LostUpdates.find(s, 0);
        assertEquals(1, lost.size());
        assertEquals(second, lost.get(0).change());
        assertEquals(first.entry().hash(), lost.get(0).over());
    }

    @Test
    void lostUpdatesFindsNoneWhenEveryWriteIsAnchored() {
        Store s = newStore();
        String v = s.put(entry(USER, "a", "one"), PutOptions.NONE.ifVersion("")).change().entry().version();
        String h = s.put(entry(USER, "a", "two"), PutOptions.NONE.ifVersion(v)).change().entry().hash();
        s.put(entry(USER, "a", "three"), PutOptions.NONE.basedOn(h));
        s.put(entry(USER, "b", "unanchored"), PutOptions.NONE);
        s.put(entry(USER, "b", "unanchored again"), PutOptions.NONE);
        s.forget(USER, "a", PutOptions.NONE);
        s.put(entry(USER, "a", "back"), PutOptions.NONE);
        assertEquals(List.of(), LostUpdates.find(s, 0));
    }

    @Test
    void lostUpdatesInAWindowSkipsTheFirstRecordOfEachEntry() {
        Store s = newStore();
        String base = s.put(entry(USER, "a", "one"), PutOptions.NONE).change().entry().hash();
        s.put(entry(USER, "a", "two"), PutOptions.NONE);
        s.put(entry(USER, "a", "three"), PutOptions.NONE.basedOn(base));
        assertEquals(1, LostUpdates.find(s, 0).size());
        assertEquals(1, LostUpdates.find(s, 1).size());
        assertEquals(0, LostUpdates.find(s, 2).size(), "the record at seq 3 has no predecessor after seq 2");
    }

    @Test
    void lostUpdatesReportsAWriteOverAForgottenEntry() {
        Store s = newStore();
        String base = s.put(entry(USER, "a", "one"), PutOptions.NONE).change().entry().hash();
        s.forget(USER, "a", PutOptions.NONE);
        Change revived = s.put(entry(USER, "a", "edited"), PutOptions.NONE.basedOn(base)).change();
        List<LostUpdate> lost = LostUpdates.find(s, 0);
        assertEquals(1, lost.size());
        assertEquals(revived.seq(), lost.get(0).change().seq());
        assertEquals("", lost.get(0).over());
    }

    // ---------------------------------------------------------------------------------------------- Search

    private Store searchable() {
        Store s = newStore();
        s.put(entry(USER, "editor", "Uses Neovim with a dark theme.", Map.of("description", "Editor choice")),
                PutOptions.NONE);
        s.put(entry(USER, "timezone", "Europe/London"), PutOptions.NONE);
        s.put(entry(USER, "percent", "Coverage is 100% on main_branch."), PutOptions.NONE);
        s.put(entry(PROJECT, "build", "Run make check before a commit.", Map.of("type", "Neovim-free")),
                PutOptions.NONE);
        s.put(entry(PROJECT, "deploy", "Deploys on Fridays are forbidden."), PutOptions.NONE);
        return s;
    }

    private static List<String> names(List<Entry> entries) {
        return entries.stream().map(e -> e.scope() + "/" + e.name()).toList();
    }

    @Test
    void searchMatchesEveryWordIgnoringCaseInNameMetaOrContent() {
        Store s = searchable();
        assertEquals(List.of("user/editor"), names(s.search(List.of(USER), "NEOVIM dark", 0)));
        assertEquals(List.of("user/editor"), names(s.search(List.of(USER), "choice", 0)), "a meta value matches");
        assertEquals(List.of("user/timezone"), names(s.search(List.of(USER), "timezone london", 0)),
                "one word in the name, one in the content");
        assertEquals(List.of(), names(s.search(List.of(USER), "neovim london", 0)), "every word must appear");
        assertEquals(List.of(), names(s.search(List.of(USER), "theme.europe", 0)));
    }

    @Test
    void searchListsByScopeInTheOrderGivenThenName() {
        Store s = searchable();
        assertEquals(List.of("project/build", "user/editor"), names(s.search(List.of(PROJECT, USER), "neovim", 0)));
        assertEquals(List.of("user/editor", "project/build"), names(s.search(List.of(USER, PROJECT), "neovim", 0)));
        assertEquals(List.of("project/build", "project/deploy", "user/editor", "user/percent", "user/timezone"),
                names(s.search(List.of(), "", 0)), "no scopes searches every scope, an empty query matches all");
        assertEquals(List.of("user/editor", "user/percent"), names(s.search(List.of(USER, USER), "", 2)));
    }

    @Test
    void searchTreatsLikeWildcardsAsText() {
        Store s = searchable();
        assertEquals(List.of("user/percent"), names(s.search(List.of(), "100%", 0)));
        assertEquals(List.of("user/percent"), names(s.search(List.of(), "main_branch", 0)));
        assertEquals(List.of(), names(s.search(List.of(), "%_%", 0)));
    }

    @Test
    void searchSkipsForgottenEntriesAndSeesReplacements() {
        Store s = searchable();
        s.forget(USER, "editor", PutOptions.NONE);
        s.put(entry(USER, "timezone", "America/New_York"), PutOptions.NONE);
        assertEquals(List.of("project/build"), names(s.search(List.of(USER, PROJECT), "neovim", 0)));
        assertEquals(List.of(), names(s.search(List.of(USER), "london", 0)));
        assertEquals(List.of("user/timezone"), names(s.search(List.of(USER), "new_york", 0)));
    }

    @Test
    void searchFoldsUnicodeCase() {
        Store s = newStore();
        s.put(entry(USER, "city", "Lives in MÜNCHEN, loves ÆBLESKIVER."), PutOptions.NONE);
        assertEquals(List.of("user/city"), names(s.search(List.of(USER), "münchen æbleskiver", 0)));
    }

    // ---------------------------------------------------------------------------------------------- Search order

    private static List<String> names(Paged<Entry> page) {
        return names(page.items());
    }

    private static Paged<Entry> byRelevance(Store s, List<Scope> scopes, String query, int offset, int limit) {
        return s.searchPage(scopes, query, SearchOrder.RELEVANCE, offset, limit, 1 << 20);
    }

    @Test
    void relevancePutsTheEntryHoldingTheQueryWordsMostOftenFirst() {
        Store s = newStore();
        s.put(entry(USER, "alpha", "The deploy script runs after review, then the team waits for the checks."),
                PutOptions.NONE);
        s.put(entry(USER, "beta", "Deploy, deploy, deploy: deploy on green."), PutOptions.NONE);
        s.put(entry(USER, "gamma", "Nothing here about shipping."), PutOptions.NONE);
        assertEquals(List.of("user/alpha", "user/beta"), names(s.search(List.of(USER), "deploy", 0)));
        assertEquals(List.of("user/beta", "user/alpha"), names(byRelevance(s, List.of(USER), "deploy", 0, 10)));
        assertEquals(List.of("user/alpha", "user/beta"),
                names(s.searchPage(List.of(USER), "deploy", SearchOrder.NAME, 0, 10, 1 << 20)), "name order as ever");
    }

    @Test
    void relevancePutsTheShorterOfTwoEntriesHoldingTheWordAsOftenFirst() {
        Store s = newStore();
        s.put(entry(PROJECT, "cache", "Redis cache in front of the catalogue, warmed nightly by a job that reads "
                + "yesterday's orders, expired after six hours, and flushed by hand after a price change."),
                PutOptions.NONE);
        s.put(entry(PROJECT, "edge", "Redis keeps sessions."), PutOptions.NONE);
        assertEquals(List.of("project/cache", "project/edge"), names(s.search(List.of(), "redis", 0)));
        assertEquals(List.of("project/edge", "project/cache"), names(byRelevance(s, List.of(), "REDIS", 0, 10)));
    }

    @Test
    void relevanceMatchesWhatNameOrderMatches() {
        Store s = searchable();
        for (String q : List.of("neovim", "NEOVIM dark", "choice", "100%", "main_branch", "fri", "neovim london", "",
                "the")) {
            for (List<Scope> scopes : List.of(List.<Scope>of(), List.of(USER), List.of(PROJECT, USER))) {
                List<String> byName = names(s.search(scopes, q, 0));
                List<String> ranked = names(byRelevance(s, scopes, q, 0, 100));
                assertEquals(byName.stream().sorted().toList(), ranked.stream().sorted().toList(), q + " " + scopes);
            }
        }
        assertEquals(List.of("project/deploy"), names(byRelevance(s, List.of(), "fri", 0, 10)),
                "a substring matches as it does by name, though no term holds it");
    }

    @Test
    void relevanceBreaksTiesByScopeThenName() {
        Store s = newStore();
        for (Scope scope : List.of(USER, PROJECT)) {
            for (String name : List.of("k2", "k1")) {
                s.put(entry(scope, name, "Tabs, not spaces, in the code."), PutOptions.NONE);
            }
        }
        s.put(entry(USER, "k3", "Tabs only, tabs always in the code."), PutOptions.NONE);
        assertEquals(List.of("user/k3", "project/k1", "project/k2", "user/k1", "user/k2"),
                names(byRelevance(s, List.of(), "tabs", 0, 10)), "every scope: byte order");
        assertEquals(List.of("user/k3", "user/k1", "user/k2", "project/k1", "project/k2"),
                names(byRelevance(s, List.of(USER, PROJECT), "tabs", 0, 10)), "named scopes: in the order given");
        assertEquals(List.of("project/k1", "project/k2", "user/k1", "user/k2", "user/k3"),
                names(byRelevance(s, List.of(), "the", 0, 10)), "a query of no term to rank by lists by name");
    }

    @Test
    void relevancePagesOverTheWholeRankedSet() {
        Store s = newStore();
        for (int i = 1; i <= 5; i++) {
            s.put(entry(USER, "n" + i, ("lint " + repeat('x', 40) + " ").repeat(i) + "trailing words here"),
                    PutOptions.NONE);
        }
        s.put(entry(USER, "n0", "Nothing."), PutOptions.NONE);
        List<String> whole = names(byRelevance(s, List.of(USER), "lint", 0, 10));
        assertEquals(List.of("user/n5", "user/n4", "user/n3", "user/n2", "user/n1"), whole);
        Paged<Entry> first = byRelevance(s, List.of(USER), "lint", 0, 2);
        Paged<Entry> second = byRelevance(s, List.of(USER), "lint", 2, 2);
        Paged<Entry> last = byRelevance(s, List.of(USER), "lint", 4, 2);
        assertEquals(whole.subList(0, 2), names(first));
        assertTrue(first.more());
        assertEquals(whole.subList(2, 4), names(second));
        assertTrue(second.more());
        assertEquals(whole.subList(4, 5), names(last));
        assertFalse(last.more());
        assertEquals(List.of(), names(byRelevance(s, List.of(USER), "lint", 9, 2)));
        assertFalse(byRelevance(s, List.of(USER), "lint", 9, 2).more());

        long twoBest = s.get(USER, "n5").size() + s.get(USER, "n4").size();
        Paged<Entry> bounded = s.searchPage(List.of(USER), "lint", SearchOrder.RELEVANCE, 0, 10, twoBest);
        assertEquals(whole.subList(0, 2), names(bounded), "the byte bound cuts the ranked list, not the name list");
        assertTrue(bounded.more());
        Paged<Entry> tight = s.searchPage(List.of(USER), "lint", SearchOrder.RELEVANCE, 1, 10, 1);
        assertEquals(whole.subList(1, 2), names(tight), "the first is always sent");
        assertTrue(tight.more());
    }

    @Test
    void aSearchPageByNameGoesOnAtAnOffset() {
        Store s = searchable();
        Paged<Entry> first = s.searchPage(List.of(), "", SearchOrder.NAME, 0, 2, 1 << 20);
        assertEquals(List.of("project/build", "project/deploy"), names(first));
        assertTrue(first.more(), "more when the limit ends the page");
        Paged<Entry> rest = s.searchPage(List.of(), "", SearchOrder.NAME, 2, 5, 1 << 20);
        assertEquals(List.of("user/editor", "user/percent", "user/timezone"), names(rest));
        assertFalse(rest.more());
        assertEquals(List.of("user/percent"), names(s.searchPage(List.of(USER), "", SearchOrder.NAME, 1, 1, 1 << 20)));
        assertEquals(List.of(), names(s.searchPage(List.of(), "", SearchOrder.NAME, Integer.MAX_VALUE, 5, 1 << 20)));
        assertEquals("query-words", assertThrows(Invalid.class, () -> s.searchPage(List.of(),
                "w ".repeat(Match.MAX_QUERY_WORDS + 1), SearchOrder.RELEVANCE, 0, 5, 1 << 20)).rule());
        assertEquals("query-nul", assertThrows(Invalid.class, () -> s.searchPage(List.of(), "a\u0000b",
                SearchOrder.RELEVANCE, 0, 5, 1 << 20)).rule());
    }

    // ---------------------------------------------------------------------------------------------- Concurrent

    @Test
    void concurrentConditionalAppendsAllSurviveWithAContiguousChain() throws Exception {
        Store s = newStore();
        s.put(entry(USER, "log", "start\n"), PutOptions.NONE);
        int writers = 4;
        int appends = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                tasks.add(() -> {
                    int conflicts = 0;
                    for (int i = 0; i < appends; i++) {
                        while (true) {
                            Entry current = s.get(USER, "log");
                            try {
                                s.put(entry(USER, "log", current.content() + "w" + writer + "-" + i + "\n"),
                                        PutOptions.NONE.ifVersion(current.version()).session("writer-" + writer));
                                break;
                            } catch (Conflict retry) {
                                conflicts++;
                            }
                        }
                    }
                    return conflicts;
                });
            }
            for (Future<Integer> f : pool.invokeAll(tasks)) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        String content = s.get(USER, "log").content();
        for (int w = 0; w < writers; w++) {
            for (int i = 0; i < appends; i++) {
                assertTrue(content.contains("w" + w + "-" + i + "\n"), "append w" + w + "-" + i + " was kept");
            }
        }
        List<Change> journal = all(s);
        assertEquals(1 + writers * appends, journal.size());
        for (int i = 0; i < journal.size(); i++) {
            assertEquals(i + 1, journal.get(i).seq(), "seq is contiguous");
            String before = i == 0 ? "" : journal.get(i - 1).entry().hash();
            assertEquals(before, journal.get(i).replaced(), "record " + (i + 1) + " replaced the one before it");
            assertEquals(before, journal.get(i).prev(), "record " + (i + 1) + " was built on the one before it");
        }
        assertEquals(List.of(), LostUpdates.find(s, 0));
    }

    @Test
    void concurrentWritersToManyEntriesGetDistinctContiguousSeqs() throws Exception {
        Store s = newStore();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<Change>> futures = new ArrayList<>();
        try {
            for (int i = 0; i < 40; i++) {
                int n = i;
                futures.add(pool.submit(() -> s.put(entry(USER, "e" + (n % 7), "v" + n), PutOptions.NONE).change()));
            }
            List<Long> seqs = new ArrayList<>();
            for (Future<Change> f : futures) {
                seqs.add(f.get().seq());
            }
            Collections.sort(seqs);
            for (int i = 0; i < seqs.size(); i++) {
                assertEquals(i + 1, seqs.get(i));
            }
        } finally {
            pool.shutdown();
        }
        Map<String, String> last = new HashMap<>();
        for (Change c : all(s)) {
            String key = c.entry().name();
            assertEquals(last.getOrDefault(key, ""), c.replaced(), "chain of " + key + " at seq " + c.seq());
            last.put(key, c.entry().hash());
        }
    }

    // ---------------------------------------------------------------------------------------------- Persistence

    @Test
    void reopenedStoreHoldsTheSameEntriesAndJournal() {
        Store s = newStore(512);
        s.put(entry(USER, "style", "Short answers.", Map.of("description", "How to answer")), PutOptions.NONE);
        s.put(entry(PROJECT, "build", "make check"), PutOptions.NONE.session("s1"));
        s.forget(PROJECT, "build", PutOptions.NONE);
        Store reopened = reopen(s);
        Assumptions.assumeTrue(reopened != null, "this store does not outlive its object");
        assertEquals(s.list(USER), reopened.list(USER));
        assertEquals(all(s), all(reopened));
        assertEquals(512, reopened.maxEntryBytes());
        Change next = reopened.put(entry(USER, "timezone", "Europe/London"), PutOptions.NONE).change();
        assertEquals(4, next.seq(), "the journal continues where it was");
    }
}
