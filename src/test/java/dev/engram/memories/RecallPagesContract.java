package dev.engram.memories;

import static dev.engram.memories.RecallCases.ALICE;
import static dev.engram.memories.RecallCases.BOB;
import static dev.engram.memories.RecallCases.idsOf;
import static dev.engram.memories.RecallCases.memory;
import static dev.engram.memories.RecallCases.tagged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Invalid;
import dev.engram.kernel.Paged;
import dev.engram.memories.RecallCases.Scripted;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The pages a console reads (part of {@link RecallContract}): memories filtered by bank, type, tag, archived and
 * stale, in their order, a page at a time from a place; the store's banks counted; a bank's slots a page at a time;
 * and what a reflection says it replaced.
 */
interface RecallPagesContract extends RecallUnderTest {

    long NO_BOUND = Long.MAX_VALUE;

    /** Alice: a1 (0.9), a2 (0.3, tagged apollo, a skill), a3 (0.6, archived), a4 (0.6, superseded); Bob: b1. */
    private Recall seeded() {
        Recall r = newRecall();
        r.save(memory("a1", ALICE, "Alice likes tea.", 0.9));
        clock().advance(Duration.ofSeconds(1));
        Memory skill = tagged("a2", ALICE, "Alice ships Apollo.", 0.3, List.of("apollo"), List.of());
        r.save(new Memory(skill.id(), skill.bank(), "skill", skill.content(), skill.importance(), skill.tags(),
                skill.keywords(), "", 0, List.of(), null, null, "", false, false, null, "", 0, null, null, null,
                List.of()));
        clock().advance(Duration.ofSeconds(1));
        r.save(memory("a3", ALICE, "Alice lived in Leeds.", 0.6));
        r.archive("a3", "moved");
        clock().advance(Duration.ofSeconds(1));
        r.save(memory("a4", ALICE, "Alice drinks coffee.", 0.6));
        r.supersede("a4", "a1");
        clock().advance(Duration.ofSeconds(1));
        r.save(tagged("b1", BOB, "Bob ships Apollo too.", 0.5, List.of("apollo"), List.of()));
        return r;
    }

    private static List<String> ids(Paged<Memory> page) {
        return idsOf(page.items());
    }

    @Test
    default void eachFilterNarrowsThePageAndABanksPageIsInItsOrder() {
        Recall r = seeded();
        assertEquals(List.of("b1", "a4", "a3", "a2", "a1"), ids(r.page(MemoryFilter.ALL, null, 10, NO_BOUND)),
                "every bank: newest first");
        assertEquals(List.of("a1", "a4", "a3", "a2"), ids(r.page(new MemoryFilter("user:alice", "", "", null,
                null), null, 10, NO_BOUND)), "a bank: most important first, then newest");
    }

    @Test
    default void filtersOfTypeTagArchivedAndStaleEachNarrow() {
        Recall r = seeded();
        assertEquals(List.of("a2"), ids(r.page(new MemoryFilter("", "skill", "", null, null), null, 10, NO_BOUND)));
        assertEquals(List.of("b1", "a2"), ids(r.page(new MemoryFilter("", "", "apollo", null, null), null, 10,
                NO_BOUND)));
        assertEquals(List.of("b1"), ids(r.page(new MemoryFilter("user:bob", "", "apollo", null, null), null, 10,
                NO_BOUND)));
        assertEquals(List.of("a3"), ids(r.page(new MemoryFilter("", "", "", true, null), null, 10, NO_BOUND)));
        assertEquals(List.of("b1", "a4", "a2", "a1"), ids(r.page(new MemoryFilter("", "", "", false, null), null,
                10, NO_BOUND)));
        assertEquals(List.of("a4"), ids(r.page(new MemoryFilter("", "", "", null, true), null, 10, NO_BOUND)));
        assertEquals(List.of("a1", "a3"), ids(r.page(new MemoryFilter("user:alice", "fact", "", null, false), null,
                10, NO_BOUND)));
        assertEquals(List.of(), ids(r.page(new MemoryFilter("user:carol", "", "", null, null), null, 10,
                NO_BOUND)));
    }

    @Test
    default void pagesFollowEachOtherFromTheirPlaceWhateverIsSavedMeanwhile() {
        Recall r = seeded();
        for (MemoryFilter filter : List.of(MemoryFilter.ALL, new MemoryFilter("user:alice", "", "", null, null))) {
            List<String> whole = ids(r.page(filter, null, 10, NO_BOUND));
            List<String> paged = new ArrayList<>();
            MemoryFilter.After after = null;
            for (int i = 0; i < 10; i++) {
                Paged<Memory> page = r.page(filter, after, 2, NO_BOUND);
                paged.addAll(ids(page));
                assertTrue(page.items().size() <= 2);
                if (!page.more()) {
                    break;
                }
                after = MemoryFilter.After.parse(MemoryFilter.After.of(page.items().get(1)).token());
            }
            assertEquals(whole, paged, "the pages, one after the other, are the whole list: " + filter);
        }
        // A memory saved between two pages, newer than both, moves nothing on the next page.
        Paged<Memory> first = r.page(MemoryFilter.ALL, null, 2, NO_BOUND);
        clock().advance(Duration.ofSeconds(1));
        r.save(memory("new", ALICE, "Alice moved.", 0.5));
        assertEquals(List.of("a3", "a2"), ids(r.page(MemoryFilter.ALL, MemoryFilter.After.of(first.items().get(1)),
                2, NO_BOUND)));
    }

    @Test
    default void aPageEndsAtItsByteBoundAndSaysMoreFollow() {
        Recall r = seeded();
        Paged<Memory> page = r.page(MemoryFilter.ALL, null, 10, 30);
        assertEquals(List.of("b1"), ids(page), "b1 is 21 bytes, with a4 it would be 41");
        assertTrue(page.more());
        Paged<Memory> one = r.page(MemoryFilter.ALL, null, 10, 1);
        assertEquals(List.of("b1"), ids(one), "the first is always in it");
        Paged<Memory> exact = r.page(MemoryFilter.ALL, null, 5, NO_BOUND);
        assertEquals(5, exact.items().size());
        assertFalse(exact.more(), "five memories on a page of five: none follows");
    }

    @Test
    default void aPlaceThatIsNotOneIsRefused() {
        for (String bad : List.of("", "x", "2026-06-17T09:30:00Z~0.5", "yesterday~0.5~a1",
                "2026-06-17T09:30:00Z~NaN~a1", "2026-06-17T09:30:00Z~0.5~a/1")) {
            assertThrows(Invalid.class, () -> MemoryFilter.After.parse(bad), bad);
        }
    }

    @Test
    default void theBanksAreCountedAndPagedByTheirId() {
        Recall r = seeded();
        r.setSlot(new Bank("team", "infra"), "SOUL", "Keep the fleet up.");
        assertEquals(List.of(new BankSummary("team:infra", 0, 0, 0), new BankSummary("user:alice", 4, 1, 1)),
                r.banks("", 2));
        assertEquals(List.of(new BankSummary("user:bob", 1, 0, 0)), r.banks("user:alice", 2));
        assertEquals(List.of(), r.banks("user:bob", 2));
    }

    @Test
    default void aBanksSlotsComeAPageAtATime() {
        Recall r = newRecall();
        for (String slot : List.of("TOOLS", "AGENTS", "SOUL", "MEMORY")) {
            r.setSlot(ALICE, slot, "text of " + slot);
        }
        assertEquals(Map.of("AGENTS", "text of AGENTS", "MEMORY", "text of MEMORY"), r.slots(ALICE, "", 2));
        assertEquals(List.of("AGENTS", "MEMORY"), List.copyOf(r.slots(ALICE, "", 2).keySet()));
        assertEquals(List.of("SOUL", "TOOLS"), List.copyOf(r.slots(ALICE, "MEMORY", 5).keySet()));
        assertEquals(Map.of(), r.slots(BOB, "", 5));
    }

    @Test
    default void aReflectionNamesTheObservationsItReplaced() {
        Recall r = newRecall();
        r.save(memory("f1", ALICE, "one", 0.5));
        r.save(memory("f2", ALICE, "two", 0.5));
        String old = reflect(r, ALICE, new Scripted((facts, existing) -> List.of(
                new Observation("One and two.", 0.6, List.of("f1", "f2"), false, "")))).newIds().get(0);
        r.save(memory("f3", ALICE, "three", 0.5));
        r.save(memory("f4", ALICE, "four", 0.5));
        Reflected second = reflect(r, ALICE, new Scripted((facts, existing) -> List.of(
                new Observation("One to four.", 0.7, List.of("f1", "f2", "f3", "f4"), false, old))));
        assertEquals(List.of(old), second.superseded());
        assertEquals(1, second.updated());
        assertEquals(0, second.waiting());
        assertEquals(second.newIds().get(0), r.get(old).supersededBy());
    }
}
