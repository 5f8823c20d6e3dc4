package dev.engram.contexts;

import static dev.engram.contexts.Steps.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.contexts.ContextStore.Edited;
import dev.engram.contexts.ContextStore.Held;
import dev.engram.contexts.ContextStore.Once;
import dev.engram.contexts.cache.CachedResult;
import dev.engram.contexts.cache.ListedResult;
import dev.engram.contexts.cache.ToolResultCache;
import dev.engram.contexts.messages.Message;
import dev.engram.entries.Hash;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.KeyReused;
import dev.engram.kernel.Limited;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Paged;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ContextStore} does, written once and run over each ({@code InMemoryContextsTest},
 * {@code PgContextStoreTest}): creating, reading, appending, replacing and deleting a context, landing a compaction,
 * the tool-result cache, the limits and refusals of {@link ContextRules} (a refused change leaves nothing), and
 * changes made at most once under an idempotency key.
 */
public abstract class ContextStoreContract {

    /** The store under test; each test works in a store of its own ({@link #store}). */
    protected abstract ContextStore contexts();

    protected String store;

    private ContextStore contexts;

    @BeforeEach
    void newStore() {
        contexts = contexts();
        store = "contract-" + UUID.randomUUID().toString().substring(0, 8);
    }

    // ------------------------------------------------------------------------------------------ create, get

    @Test
    void aContextNeverCreatedIsNotFound() {
        assertThrows(NotFound.class, () -> contexts.get(store, "nobody"));
        assertThrows(NotFound.class, () -> contexts.toolResult(store, "nobody", "abcd"));
        assertEquals(ContextConfig.Memory.NONE, contexts.memory(store, "nobody"));
    }

    @Test
    void aCreatedContextReadsBackAsWritten() {
        ContextConfig config = ContextConfig.defaults().withSafetyMargin(7)
                .withMemory(new ContextConfig.Memory(List.of("user"), 2048, Map.of()));
        Context c = Context.of(config, null);
        c.setSystemPrompt("Be brief." + Context.CACHE_BREAK + "Today is Monday.");
        c.setPlan("1. read");
        c.addStep(step("look", "seen", 1));
        AtomicInteger seenEmpty = new AtomicInteger();
        contexts.change(store, "c", (current, cache) -> {
            if (current.isEmpty()) {
                seenEmpty.incrementAndGet();
            }
            return new Edited<>(new Held(c.config(), c.state()), "context.configured", Map.of("config", config),
                    null);
        });

        Held held = contexts.get(store, "c");
        assertEquals(1, seenEmpty.get(), "the edit saw no context");
        assertEquals(config, held.config());
        assertEquals(c.state(), held.state());
        assertEquals(config.memory(), contexts.memory(store, "c"));
    }

    @Test
    void theSameIdInAnotherStoreIsAnotherContext() {
        create("c");
        String other = store + "-b";
        assertThrows(NotFound.class, () -> contexts.get(other, "c"));
        edit("c", x -> x.setPlan("mine"));
        create(other, "c");
        assertNotEquals("mine", contexts.get(other, "c").state().plan());
        assertEquals("mine", contexts.get(store, "c").state().plan());
    }

    @Test
    void aStoreIdThatIsNotKebabCaseIsRefused() {
        assertThrows(Invalid.class, () -> contexts.get("Not A Store", "c"));
        assertThrows(Invalid.class, () -> contexts.change("Not A Store", "c", (current, cache) -> null));
    }

    // ------------------------------------------------------------------------------------------ steps

    @Test
    void anAppendLandsAfterTheStepsHeld() {
        create("c");
        append("c", c -> c.addStep(step("one", "1", 1)));
        append("c", c -> {
            c.addStep(step("two", "2", 2));
            c.addStep(step("three", "3", 3));
        });
        assertEquals(List.of(step("one", "1", 1), step("two", "2", 2), step("three", "3", 3)),
                contexts.get(store, "c").state().steps());
    }

    @Test
    void anAppendThatChangesTheStepsItWasGivenIsRefusedAndWritesNothing() {
        create("c");
        append("c", c -> c.addStep(step("one", "1", 1)));
        assertThrows(IllegalStateException.class, () -> append("c", c -> c.seedSteps(List.of(step("x", "y", 9)))));
        assertEquals(List.of(step("one", "1", 1)), contexts.get(store, "c").state().steps());
    }

    @Test
    void aChangeReplacesTheSteps() {
        create("c");
        edit("c", c -> Steps.numbered(5).forEach(c::addStep));
        edit("c", c -> c.seedSteps(Steps.numbered(2)));
        assertEquals(Steps.numbered(2), contexts.get(store, "c").state().steps());
    }

    @Test
    void aContextHoldsAtMostMaxStepsAndARefusalWritesNothing() {
        create("c");
        List<Step> full = Collections.nCopies(ContextRules.MAX_STEPS, Step.thought("t"));
        edit("c", c -> c.seedSteps(full));
        Limited over = assertThrows(Limited.class, () -> append("c", c -> c.addStep(Step.thought("one more"))));
        assertEquals("context-steps", over.limit());
        assertEquals(ContextRules.MAX_STEPS, over.max());
        assertEquals(ContextRules.MAX_STEPS, contexts.get(store, "c").state().steps().size());
    }

    // ------------------------------------------------------------------------------------------ compaction, prune

    @Test
    void aLandedCompactionKeepsItsPrefixAndIndexAndLaterStepsFollowIt() {
        create("c", ContextConfig.defaults().withStrategy(
                new StrategySettings("sliding_window", 1, 2, 0, 0, 0, 0, 0, 0)));
        edit("c", c -> Steps.numbered(6).forEach(c::addStep));
        Context seen = open(contexts.get(store, "c"));
        Compaction prepared = seen.prepareCompaction().orElseThrow();
        contexts.change(store, "c", (current, cache) -> {
            Context now = open(current.orElseThrow());
            now.land(prepared);
            return new Edited<>(new Held(now.config(), now.state()), "context.compacted", Map.of(), null);
        });
        append("c", c -> c.addStep(step("after", "a", 7)));

        Held held = contexts.get(store, "c");
        assertTrue(held.state().compacted());
        assertEquals(6, held.state().compactedThroughIndex());
        assertEquals(7, held.state().steps().size());
        List<Message> prompt = open(held).buildPrompt();
        assertEquals("a", prompt.get(prompt.size() - 1).content(), "the step appended after the prefix is live");
    }

    @Test
    void aReopenedContextPrunesAsItsStoredPruningSays() {
        create("c", ContextConfig.defaults().withPruning(new ContextConfig.Pruning(1, List.of(), "[PRUNED]", 0)));
        edit("c", c -> {
            for (int i = 1; i <= 3; i++) {
                c.addStep(step("Thought " + i, "Observation " + i, i));
            }
        });
        List<String> contents = open(contexts.get(store, "c")).buildPrompt().stream().map(Message::content).toList();
        assertEquals(2, Collections.frequency(contents, "[PRUNED]"));
        assertTrue(contents.contains("Observation 3"));
    }

    // ------------------------------------------------------------------------------------------ delete, refusals

    @Test
    void aDeletedContextIsGoneWithItsCache() {
        create("c");
        String hash = contexts.change(store, "c", (current, cache) -> {
            String h = cache.store("cat", "content");
            return new Edited<>(current.orElseThrow(), "context.tool_result_cached", Map.of(), h);
        });
        contexts.change(store, "c", (current, cache) -> new Edited<>(null, "context.deleted", Map.of(), null));
        assertThrows(NotFound.class, () -> contexts.get(store, "c"));
        create("c");
        assertEquals(Optional.empty(), contexts.toolResult(store, "c", hash), "a new context has a new cache");
    }

    @Test
    void aRefusedChangeWritesNothingNotEvenToTheCache() {
        create("c");
        edit("c", c -> c.setPlan("kept"));
        assertThrows(NotFound.class, () -> contexts.change(store, "c", (current, cache) -> {
            cache.store("cat", "lost");
            throw NotFound.context("c");
        }));
        contexts.change(store, "c", (current, cache) -> {
            cache.store("cat", "unchanged");
            return Edited.unchanged(null);
        });
        assertEquals("kept", contexts.get(store, "c").state().plan());
        assertEquals(Optional.empty(), contexts.toolResult(store, "c",
                ToolResultCache.contentHash("cat", "lost")));
        assertEquals(Optional.empty(), contexts.toolResult(store, "c",
                ToolResultCache.contentHash("cat", "unchanged")), "a change that changed nothing keeps no cache write");
    }

    @Test
    void aRecordHoldingNulIsRefusedWhileAStateMayHoldCacheBreaks() {
        create("c");
        Invalid nul = assertThrows(Invalid.class, () -> contexts.change(store, "c", (current, cache) ->
                new Edited<>(current.orElseThrow(), "context.plan_set", Map.of("text", "a\0b"), null)));
        assertEquals("text-nul", nul.rule());
        edit("c", c -> c.setSystemPrompt("a" + Context.CACHE_BREAK + "b"));
        assertEquals("a" + Context.CACHE_BREAK + "b", contexts.get(store, "c").state().systemPrompt());
    }

    @Test
    void aStepWhoseObservationHoldsNulIsRefusedThoughTheJournalKeepsOnlyItsHash() {
        create("c");
        Step nul = Step.tool("", new dev.engram.contexts.messages.ToolCall("c1", "cat", ""), "a\0b");
        Invalid refused = assertThrows(Invalid.class, () -> contexts.append(store, "c", (current, cache) -> {
            Context c = open(current.orElseThrow());
            c.addStep(nul);
            return new Edited<>(new Held(c.config(), c.state()), "context.steps_appended",
                    Map.of("steps", List.of(nul)), null);
        }));
        assertEquals("text-nul", refused.rule());
        assertTrue(contexts.get(store, "c").state().steps().isEmpty(), "nothing of the refused append was kept");
    }

    // ------------------------------------------------------------------------------------------ tool results

    @Test
    void aCachedToolResultIsFoundByItsShortHashItsFullHashAndAPrefix() {
        create("c");
        String shortHash = cache("c", "cat", "line 1\nline 2");
        CachedResult r = contexts.toolResult(store, "c", shortHash).orElseThrow();
        assertEquals(ToolResultCache.MIN_SHORT_HASH, shortHash.length());
        assertEquals("cat", r.toolName());
        assertEquals("line 1\nline 2", r.content());
        assertEquals(Optional.of(r), contexts.toolResult(store, "c", r.hash()));
        assertEquals(Optional.of(r), contexts.toolResult(store, "c", r.hash().substring(0, 10)));
        assertEquals(shortHash, cache("c", "cat", "line 1\nline 2"), "the same output is kept once");
        assertEquals(Optional.empty(), contexts.toolResult(store, "c", "ffffffffffff"));
    }

    @Test
    void aToolResultHoldingNulIsRefused() {
        create("c");
        Invalid nul = assertThrows(Invalid.class, () -> cache("c", "cat", "a\0b"));
        assertEquals("text-nul", nul.rule());
    }

    // ------------------------------------------------------------------------------------------ reads for a reader

    @Test
    void theListingPagesContextsByIdWithoutTheirSteps() {
        for (String id : List.of("run-b", "run-a", "run-c")) {
            create(id);
        }
        // A state whose texts hold what its own members look like, and a cache break, reads back as written.
        edit("run-a", c -> {
            c.setSystemPrompt("be brief" + Context.CACHE_BREAK + "\"compacted_through_index\":9,\"last_known_used\":9,"
                    + "\"pending_delta\":9}");
            Steps.numbered(4).forEach(c::addStep);
        });
        Paged<ContextOutline> first = contexts.list(store, "", 2);
        assertEquals(List.of("run-a", "run-b"), first.items().stream().map(ContextOutline::id).toList());
        assertTrue(first.more());
        Paged<ContextOutline> second = contexts.list(store, "run-b", 2);
        assertEquals(List.of("run-c"), second.items().stream().map(ContextOutline::id).toList());
        assertFalse(second.more());
        assertEquals(List.of(), contexts.list(store + "-none", "", 2).items());

        Context a = open(contexts.get(store, "run-a"));
        ContextOutline outline = contexts.outline(store, "run-a");
        assertEquals(first.items().get(0), outline);
        assertEquals(4, outline.steps());
        assertEquals(a.tracker().estimateTotal(), outline.estimate());
        assertEquals(a.checkFill(), outline.fill());
        assertEquals(a.checkFill(), outline.asEstimate().checkFill());
        assertFalse(outline.compacted());
        assertThrows(NotFound.class, () -> contexts.outline(store, "nobody"));
    }

    @Test
    void anOutlineTellsACompactedPrefixAndWhenTheContextChanged() {
        create("c", ContextConfig.defaults().withStrategy(
                new StrategySettings("sliding_window", 1, 1, 0, 0, 0, 0, 0, 0)));
        ContextOutline created = contexts.outline(store, "c");
        edit("c", c -> {
            Steps.numbered(5).forEach(c::addStep);
            c.compact();
        });
        ContextOutline compacted = contexts.outline(store, "c");
        assertTrue(compacted.compacted());
        assertEquals(5, compacted.compactedThroughIndex());
        assertEquals(created.created(), compacted.created());
        assertFalse(compacted.updated().isBefore(created.updated()));
    }

    @Test
    void aPageOfStepsIsReadFromItsFirstIndex() {
        create("c");
        edit("c", c -> Steps.numbered(7).forEach(c::addStep));
        assertEquals(Steps.numbered(7).subList(2, 5), contexts.steps(store, "c", 2, 3));
        assertEquals(Steps.numbered(7).subList(6, 7), contexts.steps(store, "c", 6, 5));
        assertEquals(List.of(), contexts.steps(store, "c", 7, 5));
        assertEquals(List.of(), contexts.steps(store, "c", 0, 0));
        assertThrows(NotFound.class, () -> contexts.steps(store, "nobody", 0, 5));
    }

    @Test
    void theChangesOfAContextAreItsRecordsNewestFirstSinceItsIdsLastDeletion() {
        create("c");
        contexts.change(store, "c", (current, cache) -> new Edited<>(null, ContextChange.DELETED, Map.of(), null));
        contexts.change(store, "c", (current, cache) -> Edited.of(Context.of(ContextConfig.defaults(), null),
                "context.configured", Map.of(), null));
        create("other");
        for (int i = 1; i <= 3; i++) {
            int n = i;
            contexts.change(store, "c", (current, cache) -> {
                Context c = open(current.orElseThrow());
                c.addStep(step("step " + n, "x".repeat(400 * n), n));
                return Edited.of(c, "context.steps_appended", Map.of("from", n - 1), null);
            });
        }
        Paged<ContextChange> all = contexts.changes(store, "c", Set.of(), Long.MAX_VALUE, 10);
        assertEquals(List.of("context.steps_appended", "context.steps_appended", "context.steps_appended",
                "context.configured"), all.items().stream().map(ContextChange::kind).toList(),
                "the records of the context deleted before, and of another context, are not among them");
        assertFalse(all.more());
        List<Long> seqs = all.items().stream().map(ContextChange::seq).toList();
        assertTrue(seqs.get(0) > seqs.get(1) && seqs.get(1) > seqs.get(2), "newest first: " + seqs);
        assertEquals(open(contexts.get(store, "c")).checkFill(), all.items().get(0).fill().orElseThrow(),
                "each record carries the fill after it");
        assertTrue(all.items().get(1).fill().orElseThrow().used() < all.items().get(0).fill().orElseThrow().used());

        Paged<ContextChange> page = contexts.changes(store, "c", Set.of(), seqs.get(0), 2);
        assertEquals(seqs.subList(1, 3), page.items().stream().map(ContextChange::seq).toList());
        assertTrue(page.more());
        assertEquals(List.of(), contexts.changes(store, "c", Set.of(ContextChange.COMPACTED), Long.MAX_VALUE, 10)
                .items());
        assertEquals(List.of(), contexts.changes(store, "nobody", Set.of(), Long.MAX_VALUE, 10).items());
    }

    @Test
    void aCompactionsChangeTellsWhatItReplacedAndWithWhat() {
        create("c", ContextConfig.defaults().withStrategy(
                new StrategySettings("sliding_window", 1, 2, 0, 0, 0, 0, 0, 0)));
        edit("c", c -> Steps.numbered(6).forEach(c::addStep));
        contexts.change(store, "c", (current, cache) -> {
            Context c = open(current.orElseThrow());
            Compaction prepared = c.prepareCompaction().orElseThrow();
            CompactionResult r = c.land(prepared);
            Map<String, Object> record = new java.util.LinkedHashMap<>();
            record.put("before_percent", r.beforePercent());
            record.put("after_percent", r.afterPercent());
            record.put("compacted_through_index", 6);
            record.put("strategy", "sliding_window");
            record.put("summarized", false);
            record.put("replaced_from", prepared.replaced().from());
            record.put("replaced_to", prepared.replaced().to());
            record.put("summaries", prepared.summaries());
            return Edited.of(c, ContextChange.COMPACTED, record, null);
        });
        ContextChange change = contexts.changes(store, "c", Set.of(ContextChange.COMPACTED), Long.MAX_VALUE, 5)
                .items().get(0);
        ContextChange.Compacted compacted = change.compaction().orElseThrow();
        assertEquals("sliding_window", compacted.strategy());
        assertEquals(6, compacted.compactedThroughIndex());
        assertEquals(Optional.of(new CompactionStrategy.Replaced(1, 4)), compacted.replaced());
        assertEquals(List.of("[... 3 steps omitted ...]"), compacted.summaries());
        assertEquals(change.fill().orElseThrow().percent(), compacted.afterPercent(), 1e-9);
    }

    @Test
    void theCacheIsListedByShortHashWithoutTheContent() {
        create("c");
        List<String> hashes = new java.util.ArrayList<>();
        for (String content : List.of("one", "two \u00e9", "three")) {
            hashes.add(cache("c", "cat", content));
        }
        java.util.Collections.sort(hashes);
        Paged<ListedResult> first = contexts.toolResults(store, "c", "", 2);
        assertEquals(hashes.subList(0, 2), first.items().stream().map(ListedResult::shortHash).toList());
        assertTrue(first.more());
        Paged<ListedResult> rest = contexts.toolResults(store, "c", hashes.get(1), 2);
        assertEquals(hashes.subList(2, 3), rest.items().stream().map(ListedResult::shortHash).toList());
        assertFalse(rest.more());
        ListedResult two = contexts.toolResults(store, "c", "", 5).items().stream()
                .filter(r -> r.shortHash().equals(cache("c", "cat", "two \u00e9"))).findFirst().orElseThrow();
        assertEquals("cat", two.toolName());
        assertEquals(6, two.bytes(), "its size in UTF-8 bytes");
        assertTrue(two.cachedAt().isPresent());
        assertThrows(NotFound.class, () -> contexts.toolResults(store, "nobody", "", 5));
    }

    // ------------------------------------------------------------------------------------------ idempotency

    @Test
    void aChangeUnderAKeyIsReplayedWithItsFirstAnswerAndNotMadeAgain() {
        create("c");
        Once<String> once = once("k1", "plan=a");
        ContextWrite<String> first = contexts.change(store, "c", Optional.of(once), setPlan("a"));
        assertEquals(new ContextWrite.Landed<>("plan a"), first);

        AtomicInteger ran = new AtomicInteger();
        ContextWrite<String> again = contexts.change(store, "c", Optional.of(once), (current, cache) -> {
            ran.incrementAndGet();
            return setPlan("b").apply(current, cache);
        });
        assertEquals(new ContextWrite.Replayed<>("200 plan a"), again);
        assertEquals(0, ran.get(), "a replay runs no edit");
        assertEquals("a", contexts.get(store, "c").state().plan());
    }

    @Test
    void aReplayIsAnsweredBeforeAnythingElseIsRead() {
        create("c");
        Once<String> once = once("k-del", "delete");
        contexts.change(store, "c", Optional.of(once), (current, cache) ->
                new Edited<>(null, "context.deleted", Map.of(), "gone"));
        ContextWrite<String> again = contexts.change(store, "c", Optional.of(once), (current, cache) -> {
            throw NotFound.context("c");
        });
        assertInstanceOf(ContextWrite.Replayed.class, again);
    }

    @Test
    void aKeyReusedWithAnotherRequestIsRefusedAndWritesNothing() {
        create("c");
        contexts.change(store, "c", Optional.of(once("k2", "plan=a")), setPlan("a"));
        assertThrows(KeyReused.class, () -> contexts.change(store, "c", Optional.of(once("k2", "plan=b")),
                setPlan("b")));
        assertEquals("a", contexts.get(store, "c").state().plan());
        ContextWrite<String> otherCaller = contexts.change(store, "c", Optional.of(new Once<>(IdempotencyKey.of(
                "bob", "k2", Hash.of("plan=b")), a -> "200 " + a)), setPlan("b"));
        assertInstanceOf(ContextWrite.Landed.class, otherCaller, "a key is the caller's own");
    }

    @Test
    void aRefusedChangeRecordsNoKeyAndAnUnchangedOneDoes() {
        create("c");
        Once<String> refused = once("k3", "refused");
        assertThrows(NotFound.class, () -> contexts.change(store, "c", Optional.of(refused), (current, cache) -> {
            throw NotFound.context("c");
        }));
        assertInstanceOf(ContextWrite.Landed.class, contexts.change(store, "c", Optional.of(refused), setPlan("r")));

        Once<String> unchanged = once("k4", "unchanged");
        contexts.change(store, "c", Optional.of(unchanged), (current, cache) -> Edited.unchanged("same"));
        assertEquals(new ContextWrite.Replayed<>("200 same"),
                contexts.change(store, "c", Optional.of(unchanged), setPlan("x")));
    }

    @Test
    void anAppendUnderAKeyIsReplayedAndItsFinalAnswerReplacesTheRecordedOne() {
        create("c");
        Once<String> once = once("k5", "append");
        contexts.append(store, "c", Optional.of(once), (current, cache) -> {
            Context c = open(current.orElseThrow());
            c.addStep(step("one", "1", 1));
            return new Edited<>(new Held(c.config(), c.state()), "context.steps_appended", Map.of(), "pending");
        });
        contexts.answered(store, once, "done");
        contexts.answered(store, once("k5", "another request"), "not this");
        assertEquals(new ContextWrite.Replayed<>("200 done"), contexts.append(store, "c", Optional.of(once),
                (current, cache) -> Edited.unchanged("again")));
        assertEquals(1, contexts.get(store, "c").state().steps().size());
    }

    // ------------------------------------------------------------------------------------------ helpers

    private Once<String> once(String key, String request) {
        return new Once<>(IdempotencyKey.of("alice", key + "-" + store, Hash.of(request)), a -> "200 " + a);
    }

    private static ContextStore.Edit<String> setPlan(String plan) {
        return (current, cache) -> {
            Context c = open(current.orElseThrow(() -> NotFound.context("c")));
            c.setPlan(plan);
            return new Edited<>(new Held(c.config(), c.state()), "context.plan_set", Map.of("text", plan),
                    "plan " + plan);
        };
    }

    private void create(String id) {
        create(store, id);
    }

    private void create(String in, String id) {
        contexts.change(in, id, ContextEdits.configure(ContextConfig.defaults()));
    }

    private void create(String id, ContextConfig config) {
        contexts.change(store, id, ContextEdits.configure(config));
    }

    private void edit(String id, Consumer<Context> change) {
        contexts.change(store, id, ContextEdits.edit("context.test", change));
    }

    private void append(String id, Consumer<Context> change) {
        contexts.append(store, id, ContextEdits.edit("context.steps_appended", change));
    }

    private String cache(String id, String tool, String content) {
        return contexts.change(store, id, (current, cache) -> {
            int before = cache.size();
            String h = cache.store(tool, content);
            return cache.size() == before ? Edited.unchanged(h)
                    : new Edited<>(current.orElseThrow(), "context.tool_result_cached", Map.of(), h);
        });
    }

    private static Context open(Held held) {
        return ContextEdits.open(held);
    }
}
