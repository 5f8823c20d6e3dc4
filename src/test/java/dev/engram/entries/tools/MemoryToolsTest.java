package dev.engram.entries.tools;

import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolOptions;
import dev.engram.tools.ToolResult;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.entries.Entry;
import dev.engram.entries.InMemoryStore;
import dev.engram.kernel.Invalid;
import dev.engram.entries.LostUpdates;
import dev.engram.entries.PutOptions;
import dev.engram.entries.RacingStore;
import dev.engram.kernel.Scope;
import dev.engram.entries.SearchOrder;
import dev.engram.entries.Store;
import dev.engram.entries.render.Manifest;
import dev.engram.entries.render.Render;
import dev.engram.entries.render.RenderOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The four tools over the in-memory store: schemas, semantics, and the errors a model can fix. */
class MemoryToolsTest {

    static final Scope USER = new Scope("user");
    static final Scope PROJECT = new Scope("project");
    static final Scope RULES = new Scope("rules");

    Store store = new InMemoryStore("tools", 256);

    EntryTools tools(List<Scope> writable) {
        return new EntryTools(store, writable, List.of(RULES), ToolOptions.DEFAULT, Optional::empty);
    }

    EntryTools tools(Manifest shown) {
        return new EntryTools(store, List.of(USER, PROJECT), List.of(RULES), ToolOptions.DEFAULT,
                () -> Optional.of(shown));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> props(ToolDefinition d) {
        return (Map<String, Object>) d.inputSchema().get("properties");
    }

    @Test
    void schemasNameTheScopesAndRequireOneWhenThereIsAChoice() {
        List<ToolDefinition> two = tools(List.of(USER, PROJECT)).definitions();
        assertEquals(List.of("memory_save", "memory_patch", "memory_forget", "memory_search"),
                two.stream().map(ToolDefinition::name).toList());
        ToolDefinition save = two.get(0);
        assertEquals(List.of("user", "project"), ((Map<?, ?>) props(save).get("scope")).get("enum"));
        assertEquals(List.of("scope", "name", "content"), save.inputSchema().get("required"));
        assertEquals(false, save.inputSchema().get("additionalProperties"));
        Map<?, ?> searchScopes = (Map<?, ?>) props(two.get(3)).get("scopes");
        assertEquals(List.of("user", "project", "rules"), ((Map<?, ?>) searchScopes.get("items")).get("enum"),
                "read-only scopes only search reaches");
        assertTrue(save.description().contains("Scope rules is read-only"));

        ToolDefinition single = tools(List.of(USER)).definitions().get(0);
        assertEquals(List.of("name", "content"), single.inputSchema().get("required"));

        assertEquals(new ToolDefinition.Annotations(false, true, false, false), two.get(0).annotations());
        assertEquals(new ToolDefinition.Annotations(false, false, false, false), two.get(1).annotations());
        assertEquals(new ToolDefinition.Annotations(false, true, false, false), two.get(2).annotations());
        assertTrue(two.get(3).annotations().readOnly());
        assertFalse(two.stream().anyMatch(d -> d.annotations().openWorld()));
    }

    @Test
    void aBadScopeConfigurationIsTheProductsMistake() {
        assertThrows(Invalid.class, () -> new EntryTools(store, List.of(), List.of(), ToolOptions.DEFAULT,
                Optional::empty));
        assertThrows(Invalid.class, () -> new EntryTools(store, List.of(USER), List.of(USER), ToolOptions.DEFAULT,
                Optional::empty));
        assertThrows(Invalid.class, () -> new EntryTools(store, List.of(new Scope("User")), List.of(),
                ToolOptions.DEFAULT, Optional::empty));
    }

    @Test
    void saveCreatesThenReplacesKeepingMetaUnlessTheCallClearsIt() {
        EntryTools t = tools(List.of(USER));
        ToolResult created = t.call("memory_save", Map.of("name", "style", "content", "Short answers.",
                "meta", Map.of("description", "How to answer")), "s1");
        assertFalse(created.isError(), created.output());
        assertTrue(created.output().startsWith("Saved user/style (14 of 256 bytes, sha256:"), created.output());
        assertTrue(created.output().contains("created; meta set (description)"), created.output());
        assertEquals("memory_save", created.details().orElseThrow().tool());
        assertEquals("s1", created.details().orElseThrow().change().session());
        assertEquals(1, created.details().orElseThrow().change().seq());

        ToolResult kept = t.call("memory_save", Map.of("name", "style", "content", "Long answers."), "s1");
        assertTrue(kept.output().contains("replaced 14 bytes; meta kept (description)"), kept.output());
        assertEquals("How to answer", store.get(USER, "style").description());
        assertEquals(created.details().get().change().entry().hash(), kept.details().get().change().prev(),
                "without a render, a save is based on its own read");

        ToolResult cleared = t.call("memory_save", Map.of("name", "style", "content", "Long answers.",
                "meta", Map.of()), "s1");
        assertTrue(cleared.output().contains("meta cleared"), cleared.output());
        assertTrue(store.get(USER, "style").meta().isEmpty());
    }

    @Test
    void twoSessionsSavingFromOneRenderLeaveALostUpdateAndTheSecondIsTold() {
        store.put(Entry.draft(USER, "style", "Prefers short answers.\n", Map.of()), PutOptions.NONE);
        Manifest render = Render.render(store, List.of(USER), RenderOptions.DEFAULT).manifest();
        ToolResult first = tools(render).call("memory_save", Map.of("scope", "user", "name", "style",
                "content", "Prefers short answers and tabs.\n"), "telegram-c91e");
        assertTrue(first.output().endsWith("; built on the memory block."), first.output());
        ToolResult second = tools(render).call("memory_save", Map.of("scope", "user", "name", "style",
                "content", "Prefers short answers. Lives in Bristol.\n"), "slack-7f3a");
        assertFalse(second.isError());
        assertTrue(second.output().contains("changed to " + first.details().get().change().entry().hash()
                + " after the block was rendered, and this write replaced that change"), second.output());
        var lost = LostUpdates.find(store, 0);
        assertEquals(1, lost.size());
        assertEquals(second.details().get().change(), lost.get(0).change());
        assertEquals("slack-7f3a", lost.get(0).change().session());
    }

    @Test
    void aSaveOfAnEntryTheBlockOmittedIsBasedOnItsOwnRead() {
        store.put(Entry.draft(USER, "big", "x".repeat(200), Map.of()), PutOptions.NONE);
        Manifest render = Render.render(store, List.of(USER), RenderOptions.DEFAULT.maxTotalBytes(200)).manifest();
        assertEquals(1, render.omitted().size());
        ToolResult r = tools(render).call("memory_save", Map.of("scope", "user", "name", "big", "content", "small"),
                "");
        assertTrue(r.output().endsWith("; built on the stored entry, which the memory block did not show."),
                r.output());
        assertEquals(List.of(), LostUpdates.find(store, 0));
    }

    @Test
    void aCreateRacedByAnotherSessionIsALostUpdateAndTheSaveSaysWhatItReplaced() {
        Entry theirs = Entry.draft(USER, "style", "Written by the other session.", Map.of());
        EntryTools t = new EntryTools(new RacingStore(store, () -> store.put(theirs, PutOptions.NONE.session(
                "other-session"))), List.of(USER), List.of(), ToolOptions.DEFAULT, Optional::empty);
        ToolResult r = t.call("memory_save", Map.of("name", "style", "content", "Mine."), "s1");
        assertFalse(r.isError(), r.output());
        String theirHash = dev.engram.entries.Hash.of(theirs.content());
        assertTrue(r.output().contains("replaced " + theirHash), r.output());
        assertFalse(r.output().contains("created"), r.output());
        assertTrue(r.output().contains("another session"), r.output());
        var lost = LostUpdates.find(store, 0);
        assertEquals(1, lost.size(), "the create that discarded another session's entry is reported");
        assertEquals("", lost.get(0).change().prev());
        assertEquals(theirHash, lost.get(0).over());
    }

    @Test
    void aReplaceRacedByAnotherSessionSaysWhatTheWriteReplacedNotWhatItRead() {
        store.put(Entry.draft(USER, "style", "Read by this session.", Map.of()), PutOptions.NONE);
        Entry theirs = Entry.draft(USER, "style", "Written in between.", Map.of());
        EntryTools t = new EntryTools(new RacingStore(store, () -> store.put(theirs, PutOptions.NONE.session(
                "other-session"))), List.of(USER), List.of(), ToolOptions.DEFAULT, Optional::empty);
        ToolResult r = t.call("memory_save", Map.of("name", "style", "content", "Mine."), "s1");
        assertFalse(r.isError(), r.output());
        assertTrue(r.output().contains("replaced " + dev.engram.entries.Hash.of(theirs.content())), r.output());
        assertFalse(r.output().contains("replaced 21 bytes"), r.output());
        assertEquals(1, LostUpdates.find(store, 0).size());
    }

    @Test
    void patchReplacesOneOccurrenceAndForgetWritesATombstone() {
        EntryTools t = tools(List.of(USER));
        t.call("memory_save", Map.of("name", "build", "content", "Run make check before a commit."), "");
        ToolResult p = t.call("memory_patch", Map.of("name", "build", "old_text", "make check",
                "new_text", "make verify"), "s2");
        assertFalse(p.isError(), p.output());
        assertEquals("Run make verify before a commit.", store.get(USER, "build").content());
        assertEquals("s2", p.details().get().change().session());
        ToolResult f = t.call("memory_forget", Map.of("name", "build"), "s2");
        assertFalse(f.isError());
        assertTrue(f.details().get().change().entry().deleted());
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of("scope left out with two scopes", "memory_save",
                        Map.of("name", "a", "content", "x"), "scope is required; name one of: user, project"),
                Arguments.of("unknown scope", "memory_save", Map.of("scope", "team", "name", "a", "content", "x"),
                        "scope \"team\" is not available"),
                Arguments.of("read-only scope", "memory_forget", Map.of("scope", "rules", "name", "a"),
                        "scope rules is read-only"),
                Arguments.of("invalid name", "memory_save", Map.of("scope", "user", "name", "Bad Name",
                        "content", "x"), "is not kebab-case"),
                Arguments.of("content over the limit", "memory_save", Map.of("scope", "user", "name", "a",
                        "content", "y".repeat(300)), "300 bytes, over the limit of 256 bytes"),
                Arguments.of("content missing", "memory_save", Map.of("scope", "user", "name", "a"),
                        "content is required"),
                Arguments.of("content not a string", "memory_save", Map.of("scope", "user", "name", "a",
                        "content", 5), "content must be a string"),
                Arguments.of("unknown argument", "memory_save", Map.of("scope", "user", "name", "a", "content", "x",
                        "tags", "t"), "Unknown argument \"tags\""),
                Arguments.of("patch anchor missing", "memory_patch", Map.of("scope", "user", "name", "note",
                        "old_text", "absent", "new_text", "x"), "does not occur"),
                Arguments.of("patch anchor repeated", "memory_patch", Map.of("scope", "user", "name", "note",
                        "old_text", "o", "new_text", "0"), "occurs 2 times"),
                Arguments.of("patch without new_text", "memory_patch", Map.of("scope", "user", "name", "note",
                        "old_text", "one"), "new_text is required"),
                Arguments.of("patch of a missing entry", "memory_patch", Map.of("scope", "user", "name", "none",
                        "old_text", "a", "new_text", "b"), "memory_save creates one"),
                Arguments.of("forget of a missing entry", "memory_forget", Map.of("scope", "user", "name", "none"),
                        "no entry user/none to forget"),
                Arguments.of("empty query", "memory_search", Map.of("query", " "), "query is empty"),
                Arguments.of("limit out of range", "memory_search", Map.of("query", "x", "limit", 500),
                        "limit must be a whole number from 1 to 50"),
                Arguments.of("unknown tool", "memory_delete", Map.of(), "There is no tool \"memory_delete\""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void mistakesComeBackAsTextThatSaysHowToFixThem(String label, String tool, Map<String, Object> args,
            String says) {
        store.put(Entry.draft(USER, "note", "one two", Map.of()), PutOptions.NONE);
        long before = store.journal(0, 0).size();
        ToolResult r = tools(List.of(USER, PROJECT)).call(tool, args, "s");
        assertTrue(r.isError(), label + ": " + r.output());
        assertTrue(r.output().contains(says), label + ": " + r.output());
        assertTrue(r.details().isEmpty());
        assertEquals(before, store.journal(0, 0).size(), "nothing written by " + label);
    }

    @Test
    void searchShowsFiveEntriesAndSixteenKibibytesAndNamesTheRest() {
        Store big = new InMemoryStore("search", 8192);
        for (int i = 0; i < 8; i++) {
            big.put(Entry.draft(USER, "fact-" + i, "alpha " + "z".repeat(5000), Map.of("description", "Fact " + i)),
                    PutOptions.NONE);
        }
        EntryTools t = new EntryTools(big, List.of(USER), List.of(), ToolOptions.DEFAULT, Optional::empty);
        String out = t.call("memory_search", Map.of("query", "ALPHA"), "").output();
        assertTrue(out.startsWith("5 matches in user for \"ALPHA\"."), out);
        assertTrue(out.contains("user/fact-0 (5006 bytes): Fact 0"), out);
        assertTrue(out.contains("Not shown, over the 16384 byte result limit; search for them by name: "
                + "user/fact-3 (5006 bytes), user/fact-4 (5006 bytes)"), out);
        assertTrue(out.contains("More entries match than the 5 shown"), out);
        String one = t.call("memory_search", Map.of("query", "alpha", "limit", 1, "scopes", List.of("user")), "")
                .output();
        assertTrue(one.startsWith("1 match in user"), one);
        assertEquals("No entries in user match \"omega\".", t.call("memory_search", Map.of("query", "omega"), "")
                .output());
    }

    @Test
    void searchListsBestFirstWhenTheProductAsksForRelevance() {
        store.put(Entry.draft(USER, "alpha", "Tabs in the build files, spaces elsewhere.", Map.of()), PutOptions.NONE);
        store.put(Entry.draft(USER, "beta", "Tabs, tabs, tabs.", Map.of()), PutOptions.NONE);
        store.put(Entry.draft(RULES, "gamma", "Tabs always; tabs.", Map.of()), PutOptions.NONE);
        ToolOptions relevance = ToolOptions.DEFAULT.searchingIn(Optional.of(SearchOrder.RELEVANCE));
        assertEquals(SearchOrder.NAME, ToolOptions.DEFAULT.searchOrder(), "by name unless asked");
        assertEquals(ToolOptions.DEFAULT, ToolOptions.DEFAULT.searchingIn(Optional.empty()));
        EntryTools byName = tools(List.of(USER));
        EntryTools best = new EntryTools(store, List.of(USER), List.of(RULES), relevance, Optional::empty);
        String named = byName.call("memory_search", Map.of("query", "tabs"), "").output();
        assertTrue(named.startsWith("3 matches in user, rules for \"tabs\".\n\nuser/alpha"), named);
        String ranked = best.call("memory_search", Map.of("query", "tabs"), "").output();
        assertTrue(ranked.startsWith("3 matches in user, rules for \"tabs\", best match first.\n\nuser/beta"),
                ranked);
        assertTrue(ranked.indexOf("rules/gamma") < ranked.indexOf("user/alpha"), ranked);
        String top = best.call("memory_search", Map.of("query", "tabs", "limit", 1), "").output();
        assertTrue(top.startsWith("1 match in user, rules for \"tabs\".\n\nuser/beta"), top);
        assertTrue(top.contains("More entries match than the 1 shown"), top);
        assertEquals(byName.definitions(), best.definitions(), "the model sees the same tools");
    }

    @Test
    void searchReachesReadOnlyScopes() {
        store.put(Entry.draft(RULES, "style-guide", "Use tabs.", Map.of()), PutOptions.NONE);
        String out = tools(List.of(USER)).call("memory_search", Map.of("query", "tabs"), "").output();
        assertTrue(out.contains("rules/style-guide"), out);
    }

    @Test
    void twoSessionsPatchingOneEntryConcurrentlyKeepBothEdits() throws Exception {
        store.put(Entry.draft(USER, "list", "alpha: todo\nbeta: todo\n", Map.of()), PutOptions.NONE);
        EntryTools t = tools(List.of(USER));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<ToolResult>> results = new ArrayList<>();
        for (String item : List.of("alpha", "beta")) {
            results.add(pool.submit(() -> {
                go.await();
                return t.call("memory_patch", Map.of("name", "list", "old_text", item + ": todo",
                        "new_text", item + ": done"), "session-" + item);
            }));
        }
        go.countDown();
        for (Future<ToolResult> f : results) {
            assertFalse(f.get().isError(), f.get().output());
        }
        pool.shutdown();
        assertEquals("alpha: done\nbeta: done\n", store.get(USER, "list").content());
    }
}
