package dev.engram.memories;

import static dev.engram.memories.RecallCases.ALICE;
import static dev.engram.memories.RecallCases.BOB;
import static dev.engram.memories.RecallCases.ids;
import static dev.engram.memories.RecallCases.memory;
import static dev.engram.memories.RecallCases.tagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The spec's scenarios of saving memories (part of {@link RecallContract}): a save reads back exactly, replaces,
 * takes defaults and counts accesses (T1-T4), supersession, revisions and archiving (T12), lists, deletion, and
 * what a refused save, a key and a batch leave.
 */
interface RecallSaveContract extends RecallUnderTest {

    @Test
    default void t1ASavedMemoryReadsBackExactly() {
        Recall r = newRecall();
        Memory m1 = new Memory("m1", ALICE, "", "Apollo ships on Friday.", 0.8, List.of("deadline", "apollo"),
                List.of("ship", "apollo", "friday"), "", 0.25, List.of("src-2", "src-1"), null, null, "", false, false,
                null, "", 0, null, null, null, List.of(new Revision(clock().instant(), "leo", "first draft")));
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
        assertEquals(clock().instant(), got.createdAt());
        assertEquals(clock().instant(), got.validFrom());
        assertEquals(clock().instant(), got.updatedAt());
    }

    @Test
    default void t2ASaveOfTheSameIdReplacesItButItsCreationAndAccesses() {
        Recall r = newRecall();
        r.save(tagged("m1", ALICE, "Apollo ships on Friday.", 0.8, List.of("apollo", "deadline"), List.of()));
        r.access("m1");
        Instant created = r.get("m1").createdAt();
        clock().advance(Duration.ofHours(1));
        r.save(tagged("m1", ALICE, "Apollo slipped to Monday.", 0.8, List.of("apollo", "deadline", "slipped"),
                List.of()));
        Memory got = r.get("m1");
        assertEquals("Apollo slipped to Monday.", got.content());
        assertEquals(3, got.tags().size());
        assertEquals(created, got.createdAt());
        assertEquals(1, got.accessCount());
        assertEquals(clock().instant(), got.updatedAt());
        assertEquals(1, r.list(0, 0).total());
    }

    @Test
    default void t3APlainNoteTakesTheDefaults() {
        Memory m = newRecall().save(memory("", Bank.GLOBAL, "Plain note.", 0));
        assertTrue(m.id().matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"), m.id());
        assertEquals("fact", m.type());
        assertEquals(0.5, m.importance());
        assertEquals("user_input", m.source());
    }

    @Test
    default void t4AccessesAreCounted() {
        Recall r = newRecall();
        r.save(memory("m", ALICE, "x", 0.5));
        Instant updated = r.get("m").updatedAt();
        clock().advance(Duration.ofMinutes(1));
        for (int i = 0; i < 3; i++) {
            r.access("m");
        }
        assertEquals(3, r.get("m").accessCount());
        assertEquals(clock().instant(), r.get("m").lastAccessed());
        assertEquals(updated, r.get("m").updatedAt());
        assertThrows(NotFound.class, () -> r.access("missing"));
    }

    @Test
    default void t12SupersessionRevisionsAndArchiving() {
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
    default void t18ListsPagesAndOrders() {
        Bank s1 = new Bank("session", "s-1");
        Recall r = newRecall();
        Instant start = clock().instant();
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
    default void t19DeleteAndClear() {
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
    default void aRefusedSaveWritesNothing() {
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

    @Test
    default void aSaveUnderAKeyIsMadeOnceAndARefusedOneRecordsNoKey() {
        Recall r = newRecall();
        dev.engram.kernel.IdempotencyKey key = new dev.engram.kernel.IdempotencyKey("key_a", "k-1", "fp-1", "said");
        Saved<Memory> landed = r.save(memory("", ALICE, "Apollo ships on Friday.", 0.8), key);
        assertInstanceOf(Saved.Landed.class, landed);
        Memory first = landed.value();
        clock().advance(Duration.ofSeconds(5));
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

    @Test
    default void aBatchSavesEveryMemoryInOrderOrNoneWhenOneIsRefused() {
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
    default void aBatchUnderAKeyIsSavedOnceAndReplayedWhole() {
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
}
