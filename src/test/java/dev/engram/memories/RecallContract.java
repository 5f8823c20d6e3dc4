package dev.engram.memories;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.ReflectionFailed;
import dev.engram.memories.rank.Ranking;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The spec's scenarios (SPEC §8) and Engram's refusals, over every store of memories. A subclass gives a new, empty
 * store whose clock is {@link #clock}.
 */
abstract class RecallContract {

    static final Bank ALICE = new Bank("user", "alice");
    static final Bank BOB = new Bank("user", "bob");

    final TestClock clock = new TestClock(Instant.parse("2026-06-17T09:30:00Z"));

    abstract Recall newRecall();

    static Memory memory(String id, Bank bank, String content, double importance) {
        return new Memory(id, bank, "fact", content, importance, List.of(), List.of(), "", 0, List.of(), null, null, "",
                false, false, null, "", 0, null, null, null, List.of());
    }

    static Memory tagged(String id, Bank bank, String content, double importance, List<String> tags,
            List<String> keywords) {
        return new Memory(id, bank, "fact", content, importance, tags, keywords, "", 0, List.of(), null, null, "",
                false, false, null, "", 0, null, null, null, List.of());
    }

    @Test
    void listsAndSearchesEndBeforeTheMemoryThatWouldTakeThemOverTheByteBound() {
        Recall r = newRecall();
        for (String id : List.of("m1", "m2", "m3", "m4", "m5")) {
            r.save(memory(id, ALICE, "needle " + "x".repeat(93), 0.5));
        }
        MemoryPage first = r.list(10, 0, 250);
        assertEquals(List.of("m1", "m2"), first.memories().stream().map(Memory::id).toList());
        assertTrue(first.truncated());
        assertEquals(5, first.total());
        MemoryPage last = r.list(10, 4, 250);
        assertEquals(List.of("m5"), last.memories().stream().map(Memory::id).toList());
        assertFalse(last.truncated());
        assertEquals(1, r.list(10, 0, 1).memories().size(), "the first is always sent");
        assertFalse(r.list(3, 0, 1 << 20).truncated(), "the limit is not the bound");

        dev.engram.kernel.Paged<Memory> bank = r.inBank(ALICE, 10, 250);
        assertEquals(List.of("m1", "m2"), bank.items().stream().map(Memory::id).toList());
        assertTrue(bank.more());
        assertFalse(r.inBank(ALICE, 10, 1 << 20).more());
        dev.engram.kernel.Paged<Memory> facts = r.ofType("fact", 10, 250);
        assertEquals(2, facts.items().size());
        assertTrue(facts.more());
        assertEquals(5, r.ofType("fact", 10, 1 << 20).items().size());

        dev.engram.kernel.Paged<Scored> found = r.search(SearchOptions.of("needle"), 250);
        assertEquals(2, found.items().size());
        assertTrue(found.more());
        assertFalse(r.search(SearchOptions.of("needle"), 1 << 20).more());
        assertEquals(5, r.search(SearchOptions.of("needle"), 1 << 20).items().size());
    }

    @Test
    void t1ASavedMemoryReadsBackExactly() {
        Recall r = newRecall();
        Memory m1 = new Memory("m1", ALICE, "", "Apollo ships on Friday.", 0.8, List.of("deadline", "apollo"),
                List.of("ship", "apollo", "friday"), "", 0.25, List.of("src-2", "src-1"), null, null, "", false, false,
                null, "", 0, null, null, null, List.of(new Revision(clock.instant(), "leo", "first draft")));
        r.save(m1);
        Memory got = r.get("m1");
        assertEquals("Apollo ships on Friday.", got.content());
        assertEquals(0.8, got.importance());
        assertEquals(0.25, got.confidence());
        assertEquals(List.of("apollo", "deadline"), got.tags());
        assertEquals(List.of("apollo", "friday", "ship"), got.keywords());
        assertEquals(List.of("src-1", "src-2"), got.evidence());
        assertEquals("fact", got.type());
        assertEquals("user_input", got.source());
        assertEquals("user:alice", got.bank().bankId());
        assertEquals(1, got.revisions().size());
        assertEquals("leo", got.revisions().get(0).by());
        assertEquals(clock.instant(), got.createdAt());
        assertEquals(clock.instant(), got.validFrom());
        assertEquals(clock.instant(), got.updatedAt());
    }

    @Test
    void t2ASaveOfTheSameIdReplacesItButItsCreationAndAccesses() {
        Recall r = newRecall();
        r.save(tagged("m1", ALICE, "Apollo ships on Friday.", 0.8, List.of("apollo", "deadline"), List.of()));
        r.access("m1");
        Instant created = r.get("m1").createdAt();
        clock.advance(Duration.ofHours(1));
        r.save(tagged("m1", ALICE, "Apollo slipped to Monday.", 0.8, List.of("apollo", "deadline", "slipped"),
                List.of()));
        Memory got = r.get("m1");
        assertEquals("Apollo slipped to Monday.", got.content());
        assertEquals(3, got.tags().size());
        assertEquals(created, got.createdAt());
        assertEquals(1, got.accessCount());
        assertEquals(clock.instant(), got.updatedAt());
        assertEquals(1, r.list(0, 0).total());
    }

    @Test
    void t3APlainNoteTakesTheDefaults() {
        Memory m = newRecall().save(memory("", Bank.GLOBAL, "Plain note.", 0));
        assertTrue(m.id().matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"), m.id());
        assertEquals("fact", m.type());
        assertEquals(0.5, m.importance());
        assertEquals("user_input", m.source());
    }

    @Test
    void t4AccessesAreCounted() {
        Recall r = newRecall();
        r.save(memory("m", ALICE, "x", 0.5));
        Instant updated = r.get("m").updatedAt();
        clock.advance(Duration.ofMinutes(1));
        for (int i = 0; i < 3; i++) {
            r.access("m");
        }
        assertEquals(3, r.get("m").accessCount());
        assertEquals(clock.instant(), r.get("m").lastAccessed());
        assertEquals(updated, r.get("m").updatedAt());
        assertThrows(NotFound.class, () -> r.access("missing"));
    }

    @Test
    void t5RankedSearchScoresAsTheReferenceDoes() {
        Recall r = newRecall();
        r.save(memory("hi", ALICE, "Apollo project ships on Friday", 0.9));
        r.save(memory("lo", ALICE, "Apollo unrelated trivia", 0.2));
        r.save(memory("garden", ALICE, "Completely different topic about gardening", 0.5));
        List<Scored> found = r.search(SearchOptions.of("Apollo Friday").ranked(Ranking.SEED));
        assertEquals(List.of("hi", "lo"), found.stream().map(s -> s.memory().id()).toList());
        assertEquals(2.0 / 3 * 0.95, found.get(0).score(), 1e-9);
        assertEquals(0.3, found.get(1).score(), 1e-9);
        assertEquals(0, r.get("hi").accessCount(), "a search is not an access");
    }

    @Test
    void t6StaleAndArchivedAreLeftOutUnlessAskedFor() {
        Recall r = newRecall();
        r.save(memory("landed", ALICE, "Mars rover landed", 0.5));
        r.save(memory("old", ALICE, "Mars old report", 0.5));
        r.save(memory("retired", ALICE, "Mars retired note", 0.5));
        r.supersede("old", "landed");
        r.archive("retired", "done");
        assertEquals(List.of("landed"), ids(r.search(SearchOptions.of("Mars"))));
        assertEquals(3, r.search(new SearchOptions("Mars", 0, 0, true, true, "", List.of())).size());
    }

    @Test
    void t7ABankFilterKeepsOtherBanksOut() {
        Recall r = newRecall();
        r.save(memory("a", ALICE, "secret apollo plan", 0.5));
        r.save(memory("b", BOB, "secret apollo plan", 0.5));
        assertEquals(List.of("a"), ids(r.search(new SearchOptions("secret", 0, 0, false, false, "",
                List.of("user:alice")))));
    }

    @Test
    void t8RankingFiltersAndNothingFound() {
        Recall r = newRecall();
        r.save(tagged("s1", ALICE, "The deployment pipeline runs on GitLab CI.", 0.9, List.of("ci"),
                List.of("gitlab", "pipeline")));
        r.save(memory("s2", ALICE, "Coffee is restocked on Tuesdays.", 0.5));
        r.save(memory("s3", ALICE, "Backups are written to object storage nightly.", 0.5));
        List<Scored> found = r.search(SearchOptions.of("gitlab pipeline"));
        assertEquals("s1", found.get(0).memory().id());
        for (int i = 1; i < found.size(); i++) {
            assertTrue(found.get(i).score() <= found.get(i - 1).score());
        }
        assertTrue(found.get(0).score() > 0 && found.get(0).score() <= 1);
        assertEquals(List.of(), r.search(SearchOptions.of("helicopter")));
        assertEquals(List.of(), r.search(new SearchOptions("gitlab", 0, 0, false, false, "observation", List.of())));
        assertEquals(List.of(), r.search(new SearchOptions("gitlab", 0, 0, false, false, "", List.of("user:bob"))));
        assertEquals("s1", r.search(new SearchOptions("gitlab", 0, 0, false, false, "", List.of("user:alice")))
                .get(0).memory().id());
    }

    @Test
    void t9TokenCountsTieWhereBm25WouldNot() {
        // Engram follows the reference's PostgreSQL path: relevance is the number of query tokens matched, so
        // "gateway" five times and once score alike, and the newer row wins on decay (SPEC §8 T9, decided).
        Recall r = newRecall();
        String f = "unrelated prose about deployment pipelines and dashboards. ".repeat(60);
        r.save(memory("strong", ALICE, "gateway ".repeat(5), 0.5));
        clock.advance(Duration.ofMinutes(1));
        r.save(memory("weak", ALICE, f + " gateway " + f, 0.5));
        for (int i = 0; i < 3; i++) {
            r.save(memory("f" + i, ALICE, f, 0.5));
        }
        List<Scored> found = r.search(SearchOptions.of("gateway").ranked(Ranking.SEED));
        assertEquals(2, found.size());
        assertEquals("weak", found.get(0).memory().id());
        List<Scored> bm25 = r.search(SearchOptions.of("gateway").ranked(Ranking.LEXICAL));
        assertEquals(List.of("strong", "weak"), ids(bm25), "BM25 weighs the count and the length");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = Ranking.class, names = {"SEED", "HYBRID", "LEXICAL"})
    void t10AndT11CjkQueriesFindTheirRows(Ranking ranking) {
        Recall r = newRecall();
        r.save(memory("apollo", ALICE, "阿波罗项目周五发布", 0.5));
        r.save(memory("c1", ALICE, "乘法和除法是四则运算的一部分", 0.5));
        r.save(memory("c2", ALICE, "周长是围绕图形一周的长度", 0.5));
        r.save(memory("c3", ALICE, "乘法和除法是四则运算的一部分，分数的加减法需要先通分", 0.5));
        assertEquals("apollo", r.search(SearchOptions.of("阿波罗").ranked(ranking)).get(0).memory().id());
        List<String> arithmetic = ids(r.search(SearchOptions.of("四则运算").ranked(ranking)));
        assertTrue(arithmetic.indexOf("c1") >= 0 && !arithmetic.contains("c2"), arithmetic.toString());
        assertFalse(r.search(SearchOptions.of("乘法").ranked(ranking)).isEmpty());
        assertFalse(r.search(SearchOptions.of("分数").ranked(ranking)).isEmpty());
        assertEquals(List.of("apollo"), ids(r.search(SearchOptions.of("Apollo 阿波罗 发布").ranked(ranking))));
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = Ranking.class, names = {"HYBRID", "LEXICAL"})
    void aSearchSeesEveryChangeMadeBeforeIt(Ranking ranking) {
        Recall r = newRecall();
        r.save(memory("a", ALICE, "The lighthouse keeper paints boats.", 0.5));
        r.save(memory("b", ALICE, "Coffee is restocked on Tuesdays.", 0.5));
        assertEquals(List.of("a"), ids(r.search(SearchOptions.of("lighthouse").ranked(ranking))));
        r.save(memory("a", ALICE, "The harbour master counts gulls.", 0.5));
        assertEquals(List.of(), ids(r.search(SearchOptions.of("lighthouse").ranked(ranking))));
        assertEquals(List.of("a"), ids(r.search(SearchOptions.of("gulls").ranked(ranking))));
        r.archive("a", "old");
        assertEquals(List.of(), ids(r.search(SearchOptions.of("gulls").ranked(ranking))));
        assertEquals(List.of("a"), ids(r.search(new SearchOptions("gulls", 0, 0, true, false, "", List.of())
                .ranked(ranking))));
        r.delete("a");
        assertEquals(List.of(), ids(r.search(new SearchOptions("gulls", 0, 0, true, true, "", List.of())
                .ranked(ranking))));
        r.save(memory("a", BOB, "Gulls again, in another bank.", 0.5));
        assertEquals(List.of("a"), ids(r.search(new SearchOptions("gulls", 0, 0, false, false, "",
                List.of("user:bob")).ranked(ranking))));
        assertEquals(List.of(), ids(r.search(new SearchOptions("gulls", 0, 0, false, false, "",
                List.of("user:alice")).ranked(ranking))));
        assertEquals(2, r.clear());
        assertEquals(List.of(), ids(r.search(SearchOptions.of("gulls coffee").ranked(ranking))));
    }

    @Test
    void t12SupersessionRevisionsAndArchiving() {
        Bank planner = new Bank("agent", "planner");
        Recall r = newRecall();
        r.save(memory("old", planner, "belief old", 0.5));
        r.save(memory("new", planner, "belief new", 0.5));
        r.supersede("old", "new");
        Memory old = r.get("old");
        assertTrue(old.stale());
        assertEquals("new", old.supersededBy());
        assertEquals(1, old.revisions().size());
        assertEquals("reflect", old.revisions().get(0).by());
        assertEquals("superseded by new", old.revisions().get(0).summary());
        r.revise("old", "leo", "reviewed");
        assertEquals("leo", r.get("old").revisions().get(1).by());
        r.archive("new", "obsolete");
        assertEquals(List.of("old"), r.inBank(planner, 0).stream().map(Memory::id).toList());
        r.unarchive("new");
        Memory back = r.get("new");
        assertFalse(back.archived());
        assertEquals(null, back.archivedAt());
        assertEquals("", back.archiveReason());
        assertThrows(NotFound.class, () -> r.supersede("missing", "new"));
        assertThrows(NotFound.class, () -> r.revise("missing", "leo", "orphan"));
        Invalid nowhere = assertThrows(Invalid.class, () -> r.supersede("old", "no-such-memory"));
        assertEquals("superseded-by-unknown", nowhere.rule());
    }

    @Test
    void t18ListsPagesAndOrders() {
        Bank s1 = new Bank("session", "s-1");
        Recall r = newRecall();
        Instant start = clock.instant();
        for (int i = 0; i < 5; i++) {
            Memory m = memory("l" + i, s1, "fact number " + i, 0.1 * (i + 1));
            r.save(new Memory(m.id(), m.bank(), m.type(), m.content(), m.importance(), m.tags(), m.keywords(), "", 0,
                    List.of(), null, null, "", false, false, null, "", 0, null, start.minus(Duration.ofMinutes(i)),
                    null, List.of()));
        }
        MemoryPage first = r.list(3, 0);
        assertEquals(5, first.total());
        assertEquals(List.of("l0", "l1", "l2"), first.memories().stream().map(Memory::id).toList());
        assertEquals(2, r.list(3, 3).memories().size());
        assertEquals("l4", r.inBank(s1, 0).get(0).id());
        assertEquals(5, r.inBank(s1, 0).size());
        assertEquals(5, r.ofType("fact", 0).size());
    }

    @Test
    void t19DeleteAndClear() {
        Recall r = newRecall();
        r.save(memory("l0", ALICE, "fact number 0", 0.5));
        r.save(memory("l1", ALICE, "fact number 1", 0.5));
        r.delete("l0");
        assertThrows(NotFound.class, () -> r.get("l0"));
        assertEquals(1, r.list(0, 0).total());
        assertFalse(ids(r.search(SearchOptions.of("fact number"))).contains("l0"));
        assertThrows(NotFound.class, () -> r.delete("l0"));
        assertEquals(1, r.clear());
        assertEquals(0, r.list(0, 0).total());
        assertEquals(List.of(), r.search(SearchOptions.of("fact number")));
    }

    @Test
    void t13BankSettingsAreNotFoundUntilConfiguredThenReplacedWhole() {
        Bank infra = new Bank("team", "infra");
        Recall r = newRecall();
        assertThrows(NotFound.class, () -> r.settings(infra));
        r.configure(infra, new BankSettings("keep the fleet up", List.of("page on outage", "write a summary"), 3, 2,
                1));
        r.configure(infra, new BankSettings("keep the fleet up, quietly", List.of("page on outage",
                "write a summary"), 3, 2, 1));
        BankSettings s = r.settings(infra);
        assertEquals("keep the fleet up, quietly", s.mission());
        assertEquals(2, s.directives().size());
        assertEquals(3, s.skepticism());
        assertThrows(Invalid.class, () -> r.configure(infra, new BankSettings("", List.of(), 11, 0, 0)));
        assertEquals(3, r.settings(infra).skepticism());
    }

    @Test
    void t14MentalModelsAreSavedWholeAndDeleted() {
        Recall r = newRecall();
        r.saveModel(new MentalModel("mm-1", "Alice", "", "first", List.of("a", "b"), null));
        clock.advance(Duration.ofSeconds(1));
        r.saveModel(new MentalModel("mm-1", "Alice", "", "second", List.of("a"), null));
        assertEquals(1, r.models().size());
        assertEquals("second", r.model("mm-1").content());
        assertEquals(List.of("a"), r.model("mm-1").tags());
        assertEquals(clock.instant(), r.model("mm-1").updatedAt());
        assertThrows(Invalid.class, () -> r.saveModel(new MentalModel("", "x", "", "content", List.of(), null)));
        assertThrows(Invalid.class, () -> r.saveModel(new MentalModel("mm-2", "x", "", " ", List.of(), null)));
        r.deleteModel("mm-1");
        r.deleteModel("mm-1");
        assertEquals(List.of(), r.models());
        assertThrows(NotFound.class, () -> r.model("mm-1"));
    }

    @Test
    void t15AndT16SlotsAppendAndMakeTheContextString() {
        Recall r = newRecall();
        assertTrue(r.slot(ALICE, "SOUL").isEmpty());
        r.setSlot(ALICE, "SOUL", "on-call for storage");
        assertEquals("on-call for storage\nand for the GUI", r.appendSlot(ALICE, "SOUL", "and for the GUI"));
        r.deleteSlot(ALICE, "SOUL");
        assertTrue(r.slot(ALICE, "SOUL").isEmpty());
        r.deleteSlot(ALICE, "SOUL");
        r.setSlot(ALICE, "SOUL", "be helpful");
        r.appendSlot(ALICE, "SOUL", "be concise");
        r.setSlot(ALICE, "HEARTBEAT", "[ ] check inbox");
        r.setSlot(ALICE, "TOOLS", "");
        assertEquals("", r.slot(ALICE, "TOOLS").orElseThrow());
        assertEquals("# SOUL\n\nbe helpful\nbe concise\n\n# HEARTBEAT\n\n[ ] check inbox",
                ContextSlots.build(null, r.slots(ALICE)));
        assertEquals(Map.of(), r.slots(BOB));
        assertThrows(Invalid.class, () -> r.setSlot(ALICE, "a b", "x"));
    }

    @Test
    void t17TheEntrypointShowsTheBanksMostImportantActiveMemories() {
        Recall r = newRecall();
        r.save(memory("a", ALICE, "Top priority", 0.9));
        r.save(memory("b", ALICE, "Lower priority", 0.3));
        r.save(memory("c", ALICE, "Gone", 0.95));
        r.save(memory("d", BOB, "Bob's", 1.0));
        r.archive("c", "old");
        String text = Entrypoint.render("", ALICE.bankId(), clock.instant(), r.top(ALICE, 0, false, false));
        assertTrue(text.contains("Memory Entrypoint"));
        assertTrue(text.indexOf("Top priority") < text.indexOf("Lower priority"));
        assertFalse(text.contains("Gone") || text.contains("Bob's"));
        assertEquals(3, r.top(ALICE, 0, true, false).size());
        assertEquals(1, r.top(ALICE, 1, false, false).size());
        assertTrue(Entrypoint.render("", "user:nobody", clock.instant(), r.top(new Bank("user", "nobody"), 0, false,
                false)).endsWith("_No memories yet._\n"));
    }

    @Test
    void aRefusedSaveWritesNothing() {
        Recall r = newRecall();
        r.save(memory("keep", ALICE, "kept", 0.5));
        for (Memory bad : List.of(memory("keep", ALICE, " ", 0.5), memory("keep", ALICE, "x", 1.5),
                memory("a/b", ALICE, "x", 0.5), memory("keep", ALICE, "x", -0.1))) {
            assertThrows(Invalid.class, () -> r.save(bad));
        }
        assertEquals("kept", r.get("keep").content());
        assertEquals(1, r.list(0, 0).total());
        assertNotNull(r.get("keep").createdAt());
    }

    static List<String> ids(List<Scored> found) {
        return found.stream().map(s -> s.memory().id()).toList();
    }

    @Test
    void aSaveUnderAKeyIsMadeOnceAndARefusedOneRecordsNoKey() {
        Recall r = newRecall();
        dev.engram.kernel.IdempotencyKey key = new dev.engram.kernel.IdempotencyKey("key_a", "k-1", "fp-1", "said");
        Saved<Memory> landed = r.save(memory("", ALICE, "Apollo ships on Friday.", 0.8), key);
        assertInstanceOf(Saved.Landed.class, landed);
        Memory first = landed.value();
        clock.advance(Duration.ofSeconds(5));
        Saved<Memory> again = r.save(memory("", ALICE, "Apollo ships on Friday.", 0.8), key);
        assertEquals(first, again.value());
        assertEquals("said", assertInstanceOf(Saved.Replayed.class, again).reply());
        assertEquals(1, r.list(10, 0).total());
        assertThrows(dev.engram.kernel.KeyReused.class, () -> r.save(memory("", ALICE, "Other.", 0.8),
                new dev.engram.kernel.IdempotencyKey("key_a", "k-1", "fp-2", "")));
        Memory other = r.save(memory("", ALICE, "Apollo ships on Friday.", 0.8),
                new dev.engram.kernel.IdempotencyKey("key_b", "k-1", "fp-1", "")).value();
        assertEquals(2, r.list(10, 0).total(), "keys of two callers never meet");
        assertTrue(!other.id().equals(first.id()));

        dev.engram.kernel.IdempotencyKey fresh = new dev.engram.kernel.IdempotencyKey("key_a", "k-2", "fp-3", "");
        assertThrows(Invalid.class, () -> r.save(memory("", ALICE, "Too important.", 1.5), fresh));
        Memory fixed = r.save(memory("", ALICE, "Important enough.", 1.0), fresh).value();
        assertEquals("Important enough.", fixed.content(), "the refused save recorded no key");
    }

    // ------------------------------------------------------------------------------------------------- reflection

    /** A reflector that answers what the test scripts, and counts its calls and what it was given. */
    static final class Scripted implements Reflector {

        final java.util.function.BiFunction<List<Memory>, List<Memory>, List<Observation>> answer;
        int calls;
        List<Memory> facts = List.of();

        Scripted(java.util.function.BiFunction<List<Memory>, List<Memory>, List<Observation>> answer) {
            this.answer = answer;
        }

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public List<Observation> consolidate(List<Memory> facts, List<Memory> existing) {
            calls++;
            this.facts = facts;
            return answer.apply(facts, existing);
        }
    }

    static List<String> idsOf(List<Memory> memories) {
        return memories.stream().map(Memory::id).toList();
    }

    Reflected reflect(Recall r, Bank bank, Reflector reflector) {
        return Reflection.reflect(r, bank, reflector, 0, clock.instant());
    }

    @Test
    void t20ThreeFactsBecomeOneObservationAndASecondRunAsksNothing() {
        Recall r = newRecall();
        for (String id : List.of("f1", "f2", "f3")) {
            r.save(memory(id, ALICE, "Apollo fact " + id, 0.5));
            clock.advance(Duration.ofSeconds(1));
        }
        r.save(memory("elsewhere", BOB, "Apollo fact of bob", 0.5));
        Scripted reflector = new Scripted((facts, existing) -> List.of(new Observation("Apollo is on track.", 0.75,
                idsOf(facts), false, "")));
        Reflected first = reflect(r, ALICE, reflector);
        assertEquals(List.of("f1", "f2", "f3"), idsOf(reflector.facts), "oldest first, only the bank's facts");
        assertEquals(3, first.reviewed());
        assertEquals(1, first.created());
        assertEquals(0, first.updated());
        assertEquals(1, first.newIds().size());
        assertEquals("scripted", first.reflector());
        Memory o = r.get(first.newIds().get(0));
        assertEquals("observation", o.type());
        assertEquals("consolidated", o.source());
        assertEquals(0.75, o.importance());
        assertEquals(0.75, o.confidence());
        assertEquals(List.of("f1", "f2", "f3"), o.evidence());
        assertEquals("user:alice", o.bank().bankId());
        assertEquals(clock.instant(), o.createdAt());
        assertEquals(clock.instant(), o.validFrom());

        Reflected second = reflect(r, ALICE, reflector);
        assertEquals(1, reflector.calls, "not called again");
        assertEquals(0, second.created());
        assertEquals(0, second.reviewed());
        assertEquals(Reflection.TOO_FEW, second.note());
    }

    @Test
    void t21OneFactIsNotEnoughAndTheReflectorIsNotAsked() {
        Recall r = newRecall();
        r.save(memory("only", ALICE, "Apollo ships on Friday.", 0.5));
        r.save(new Memory("skill", ALICE, "skill", "Deploy with make.", 0.5, List.of(), List.of(), "", 0, List.of(),
                null, null, "", false, false, null, "", 0, null, null, null, List.of()));
        Scripted reflector = new Scripted((facts, existing) -> {
            throw new AssertionError("not to be called");
        });
        Reflected result = reflect(r, ALICE, reflector);
        assertEquals(1, result.reviewed(), "other types are not candidates");
        assertEquals(Reflection.TOO_FEW, result.note());
        assertEquals(0, result.created());
        assertEquals(2, r.list(10, 0).total());
    }

    @Test
    void t22ThinObservationsAreSkippedAndAnUpdateSupersedesTheOldObservation() {
        Recall r = newRecall();
        r.save(memory("f1", ALICE, "one", 0.5));
        r.save(memory("f2", ALICE, "two", 0.5));
        Reflected first = reflect(r, ALICE, new Scripted((facts, existing) -> List.of(
                new Observation("One and two.", 0.6, List.of("f1", "f2"), false, ""))));
        String old = first.newIds().get(0);
        clock.advance(Duration.ofMinutes(1));
        r.save(memory("f3", ALICE, "three", 0.5));
        r.save(memory("f4", ALICE, "four", 0.5));
        Reflected second = reflect(r, ALICE, new Scripted((facts, existing) -> {
            assertEquals(List.of(old), idsOf(existing));
            return List.of(new Observation("Just three.", 0.9, List.of("f3"), false, ""),
                    new Observation("", 0.9, List.of("f3", "f4"), false, ""),
                    new Observation("One to four.", 0.8, List.of("f1", "f2", "f3", "f4"), true, old));
        }));
        assertEquals(0, second.created());
        assertEquals(1, second.updated());
        assertEquals(1, second.newIds().size());
        Memory stale = r.get(old);
        assertEquals(second.newIds().get(0), stale.supersededBy());
        assertEquals(clock.instant(), stale.validTo());
        assertTrue(r.get(second.newIds().get(0)).conflicting());
        assertEquals(6, r.list(20, 0).total(), "four facts and two observations: the skipped ones did not land");
    }

    @Test
    void aZeroConfidenceObservationIsImportantByDefaultAndStaleObservationsCiteNothing() {
        Recall r = newRecall();
        r.save(memory("f1", ALICE, "one", 0.5));
        r.save(memory("f2", ALICE, "two", 0.5));
        String first = reflect(r, ALICE, new Scripted((facts, existing) -> List.of(
                new Observation("Both.", 0, idsOf(facts), false, "")))).newIds().get(0);
        Memory o = r.get(first);
        assertEquals(0.5, o.importance());
        assertEquals(0.0, o.confidence());
        r.supersede(first, "");
        Scripted again = new Scripted((facts, existing) -> List.of());
        Reflected result = reflect(r, ALICE, again);
        assertEquals(List.of("f1", "f2"), idsOf(again.facts), "a stale observation's evidence is new again");
        assertEquals(0, result.created());
        assertTrue(result.newIds().isEmpty());
    }

    @Test
    void aReflectionWithOneBadObservationLandsNothing() {
        Recall r = newRecall();
        r.save(memory("f1", ALICE, "one", 0.5));
        r.save(memory("f2", ALICE, "two", 0.5));
        long before = r.list(10, 0).total();
        for (Observation bad : List.of(
                new Observation("Cites a stranger.", 0.5, List.of("f1", "nobody"), false, ""),
                new Observation("   ", 0.5, List.of("f1", "f2"), false, ""),
                new Observation("Too sure.", 1.5, List.of("f1", "f2"), false, ""),
                new Observation("Not a number.", Double.NaN, List.of("f1", "f2"), false, ""),
                new Observation("Replaces a fact.", 0.5, List.of("f1", "f2"), false, "f1"),
                new Observation("x".repeat(MemoryRules.MAX_CONTENT_BYTES + 1), 0.5, List.of("f1", "f2"), false, ""))) {
            ReflectionFailed e = assertThrows(ReflectionFailed.class, () -> reflect(r, ALICE, new Scripted(
                    (facts, existing) -> List.of(new Observation("Fine.", 0.5, List.of("f1", "f2"), false, ""),
                            bad))));
            assertEquals(ReflectionFailed.Kind.MALFORMED, e.kind());
            assertTrue(e.getMessage().contains("observation 2"), e.getMessage());
            assertEquals(before, r.list(10, 0).total(), "the good first observation did not land either");
        }
    }

    @Test
    void aFactChangedWhileTheReflectorThinksFailsTheReflectionWhole() {
        Recall r = newRecall();
        r.save(memory("f1", ALICE, "one", 0.5));
        r.save(memory("f2", ALICE, "two", 0.5));
        ReflectionFailed e = assertThrows(ReflectionFailed.class, () -> reflect(r, ALICE, new Scripted(
                (facts, existing) -> {
                    clock.advance(Duration.ofSeconds(1));
                    r.save(memory("f2", ALICE, "two, corrected", 0.5));
                    return List.of(new Observation("One and two.", 0.5, List.of("f1", "f2"), false, ""));
                })));
        assertEquals(ReflectionFailed.Kind.BANK_CHANGED, e.kind());
        assertTrue(e.getMessage().contains("f2"), e.getMessage());
        assertEquals(2, r.list(10, 0).total());
    }

    @Test
    void theDeterministicReflectorGroupsByTopicAndExtendsItsObservation() {
        Recall r = newRecall();
        r.save(tagged("a1", ALICE, "Apollo ships Friday.", 0.8, List.of("apollo"), List.of()));
        r.save(tagged("a2", ALICE, "Apollo needs QA sign-off.", 0.6, List.of("apollo", "qa"), List.of()));
        r.save(tagged("g1", ALICE, "Gardening on Sunday.", 0.5, List.of("home"), List.of()));
        r.save(tagged("k1", ALICE, "Coffee on Tuesdays.", 0.4, List.of(), List.of("office")));
        r.save(tagged("k2", ALICE, "Printer on floor 2.", 0.2, List.of(), List.of("office")));
        Reflected first = reflect(r, ALICE, new TopicReflector());
        assertEquals(5, first.reviewed());
        assertEquals(2, first.created());
        List<String> contents = first.newIds().stream().map(id -> r.get(id).content()).toList();
        assertEquals(List.of("About apollo: Apollo ships Friday. / Apollo needs QA sign-off.",
                "About office: Coffee on Tuesdays. / Printer on floor 2."), contents);
        assertEquals(0.7, r.get(first.newIds().get(0)).confidence(), 1e-12);
        String apollo = first.newIds().get(0);

        clock.advance(Duration.ofMinutes(1));
        r.save(tagged("a3", ALICE, "Apollo demo moved.", 0.9, List.of("apollo"), List.of()));
        r.save(tagged("a4", ALICE, "Apollo docs done.", 0.5, List.of("apollo"), List.of()));
        Reflected second = reflect(r, ALICE, new TopicReflector());
        assertEquals(3, second.reviewed(), "g1, a3, a4");
        assertEquals(1, second.updated());
        Memory extended = r.get(second.newIds().get(0));
        assertEquals("About apollo: Apollo ships Friday. / Apollo needs QA sign-off. / Apollo demo moved. / "
                + "Apollo docs done.", extended.content());
        assertEquals(List.of("a1", "a2", "a3", "a4"), extended.evidence());
        assertEquals(extended.id(), r.get(apollo).supersededBy());
    }

    /** How often each memory is cited by the bank's active observations, after checking none cites over the bound. */
    static Map<String, Integer> citations(Recall r, Bank bank) {
        Map<String, Integer> cited = new HashMap<>();
        for (Memory o : r.active(bank)) {
            if (o.type().equals("observation")) {
                assertTrue(o.evidence().size() <= MemoryRules.MAX_SET_SIZE, o.evidence().size() + " cited");
                o.evidence().forEach(id -> cited.merge(id, 1, Integer::sum));
            }
        }
        return cited;
    }

    @ParameterizedTest
    @ValueSource(ints = {65, 200})
    void aTopicOfMoreFactsThanOneObservationCanCiteIsConsolidatedInSeveral(int n) {
        Recall r = newRecall();
        Map<String, Integer> once = new HashMap<>();
        for (int i = 0; i < n; i++) {
            r.save(tagged("f" + i, ALICE, "Fact number " + i + ".", 0.5, List.of("t"), List.of()));
            once.put("f" + i, 1);
        }
        Reflected first = reflect(r, ALICE, new TopicReflector());
        assertEquals(n, first.reviewed());
        assertEquals(once, citations(r, ALICE));

        clock.advance(Duration.ofMinutes(1));
        for (int i = n; i < n + 3; i++) {
            r.save(tagged("f" + i, ALICE, "Fact number " + i + ".", 0.5, List.of("t"), List.of()));
            once.put("f" + i, 1);
        }
        Reflected second = reflect(r, ALICE, new TopicReflector());
        assertEquals(3, second.reviewed());
        assertEquals(once, citations(r, ALICE));
    }

    @Test
    void aReflectorIsGivenNoMoreFactsThanItTakesAtOnceAndTheRestWait() {
        Recall r = newRecall();
        for (int i = 0; i < 70; i++) {
            r.save(memory("f" + i, ALICE, "Fact " + i, 0.5));
        }
        List<Integer> given = new java.util.ArrayList<>();
        Reflector bounded = new Reflector() {
            @Override
            public String name() {
                return "bounded";
            }

            @Override
            public List<Observation> consolidate(List<Memory> facts, List<Memory> existing) {
                given.add(facts.size());
                return List.of(new Observation("All of them.", 0.5, idsOf(facts), false, ""));
            }

            @Override
            public int maxFacts() {
                return MemoryRules.MAX_SET_SIZE;
            }
        };
        Reflected first = reflect(r, ALICE, bounded);
        assertEquals(MemoryRules.MAX_SET_SIZE, first.reviewed());
        assertTrue(first.note().startsWith("6 more new facts wait"), first.note());
        Reflected second = reflect(r, ALICE, bounded);
        assertEquals(6, second.reviewed());
        assertEquals(List.of(64, 6), given);
        assertEquals(70, citations(r, ALICE).size());
    }

    @Test
    void aBatchSavesEveryMemoryInOrderOrNoneWhenOneIsRefused() {
        Recall r = newRecall();
        r.save(memory("kept", ALICE, "Kept before.", 0.5));
        List<Memory> batch = List.of(memory("b-0", ALICE, "First of three.", 0.5),
                memory("", BOB, "Second, its id made.", 0.4), memory("b-2", ALICE, "Third of three.", 0.6));
        List<Memory> saved = r.saveAll(batch);
        assertEquals(3, saved.size());
        assertEquals("b-0", saved.get(0).id());
        assertFalse(saved.get(1).id().isEmpty(), "an id is made as a single save makes one");
        assertEquals(BOB, saved.get(1).bank());
        assertEquals("Third of three.", r.get("b-2").content());
        assertEquals(4, r.list(10, 0).total());

        List<Memory> bad = List.of(memory("c-0", ALICE, "Fine.", 0.5), memory("c-1", ALICE, "Fine too.", 0.5),
                memory("c-2", ALICE, "Too important.", 3));
        dev.engram.kernel.Invalid refused = assertThrows(dev.engram.kernel.Invalid.class, () -> r.saveAll(bad));
        assertEquals("memories.2.importance", refused.field());
        assertEquals(4, r.list(10, 0).total(), "nothing of a refused batch is saved");
        assertThrows(dev.engram.kernel.NotFound.class, () -> r.get("c-0"));

        List<Memory> tooMany = new java.util.ArrayList<>();
        for (int i = 0; i <= MemoryRules.MAX_BATCH; i++) {
            tooMany.add(memory("m-" + i, ALICE, "Fact " + i, 0.5));
        }
        assertEquals("batch-size", assertThrows(dev.engram.kernel.Invalid.class, () -> r.saveAll(tooMany)).rule());
        assertEquals("batch-empty", assertThrows(dev.engram.kernel.Invalid.class, () -> r.saveAll(List.of())).rule());
        assertEquals(4, r.list(10, 0).total());
    }

    @Test
    void aBatchUnderAKeyIsSavedOnceAndReplayedWhole() {
        Recall r = newRecall();
        dev.engram.kernel.IdempotencyKey key = dev.engram.kernel.IdempotencyKey.of("key_a", "batch-1", "fp-1");
        Saved<List<Memory>> landed = r.saveAll(List.of(memory("", ALICE, "One.", 0.5), memory("", ALICE, "Two.", 0.5)),
                key);
        assertInstanceOf(Saved.Landed.class, landed);
        List<Memory> first = landed.value();
        Saved<List<Memory>> again = r.saveAll(List.of(memory("", ALICE, "One.", 0.5), memory("", ALICE, "Two.", 0.5)),
                key);
        assertInstanceOf(Saved.Replayed.class, again);
        assertEquals(first.stream().map(Memory::id).toList(), again.value().stream().map(Memory::id).toList());
        assertEquals("Two.", again.value().get(1).content());
        assertThrows(dev.engram.kernel.KeyReused.class, () -> r.saveAll(List.of(memory("", ALICE, "Other.", 0.5)),
                dev.engram.kernel.IdempotencyKey.of("key_a", "batch-1", "fp-2")));
        assertEquals(2, r.list(10, 0).total());
    }

    @Test
    void aQueryWithAnUnpairedSurrogateIsRefusedAsOneWithNulIs() {
        Recall r = newRecall();
        r.save(memory("m", ALICE, "Apollo ships on Friday.", 0.5));
        assertEquals("query-encoding", assertThrows(dev.engram.kernel.Invalid.class,
                () -> r.search(SearchOptions.of("apollo \udc00"))).rule());
        assertNotNull(r.search(SearchOptions.of("apollo \ud83d\ude80")), "a pair is text, searched");
    }
}
