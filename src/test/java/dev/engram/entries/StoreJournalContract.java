package dev.engram.entries;

import static dev.engram.entries.StoreCases.PROJECT;
import static dev.engram.entries.StoreCases.USER;
import static dev.engram.entries.StoreCases.all;
import static dev.engram.entries.StoreCases.entry;
import static dev.engram.entries.StoreCases.repeat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Paged;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The conformance cases of a {@link Store}'s journal (part of {@link StoreContract}): Journal, pages bounded in
 * bytes, and LostUpdates.
 */
public interface StoreJournalContract extends StoreUnderTest {

    // ---------------------------------------------------------------------------------------------- Journal

    @Test
    default void journalReadsAfterTheCursorExclusively() {
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
    default void journalReturnsCopies() {
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
    default void journalRecordsTheSessionThatWrote() {
        Store s = newStore();
        s.put(entry(USER, "a", "one"), PutOptions.NONE.session("slack-7f3a"));
        s.put(entry(USER, "a", "two"), PutOptions.NONE);
        s.forget(USER, "a", PutOptions.NONE.session("telegram-c91e"));
        assertEquals(List.of("slack-7f3a", "", "telegram-c91e"), all(s).stream().map(Change::session).toList());
        assertEquals(List.of("", "", ""), all(s).stream().map(Change::source).toList());
    }

    @Test
    default void putReturnsTheRecordTheJournalHolds() {
        Store s = newStore();
        Change returned = s.put(entry(USER, "a", "one", Map.of("type", "fact")), PutOptions.NONE.session("s1")).change();
        Change journaled = all(s).get(0);
        assertEquals(returned, journaled);
        Change forgotten = s.forget(USER, "a", PutOptions.NONE).change();
        assertEquals(forgotten, all(s).get(1));
    }

    // ---------------------------------------------------------------------------------------------- Byte-bounded pages

    @Test
    default void aListPageEndsBeforeTheEntryThatWouldTakeItOverTheByteBound() {
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
    default void aJournalPageEndsBeforeTheRecordThatWouldTakeItOverTheByteBound() {
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
    default void aSearchEndsBeforeTheHitThatWouldTakeItOverTheByteBound() {
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
    default void aLostUpdatesPageEndsAtTheByteBound() {
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
    default void lostUpdatesReportsTheSecondOfTwoWritesBuiltOnOneRead() {
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
    default void lostUpdatesFindsNoneWhenEveryWriteIsAnchored() {
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
    default void lostUpdatesInAWindowSkipsTheFirstRecordOfEachEntry() {
        Store s = newStore();
        String base = s.put(entry(USER, "a", "one"), PutOptions.NONE).change().entry().hash();
        s.put(entry(USER, "a", "two"), PutOptions.NONE);
        s.put(entry(USER, "a", "three"), PutOptions.NONE.basedOn(base));
        assertEquals(1, LostUpdates.find(s, 0).size());
        assertEquals(1, LostUpdates.find(s, 1).size());
        assertEquals(0, LostUpdates.find(s, 2).size(), "the record at seq 3 has no predecessor after seq 2");
    }

    @Test
    default void lostUpdatesReportsAWriteOverAForgottenEntry() {
        Store s = newStore();
        String base = s.put(entry(USER, "a", "one"), PutOptions.NONE).change().entry().hash();
        s.forget(USER, "a", PutOptions.NONE);
        Change revived = s.put(entry(USER, "a", "edited"), PutOptions.NONE.basedOn(base)).change();
        List<LostUpdate> lost = LostUpdates.find(s, 0);
        assertEquals(1, lost.size());
        assertEquals(revived.seq(), lost.get(0).change().seq());
        assertEquals("", lost.get(0).over());
    }
    // ---------------------------------------------------------------------------------------------- Ranges

    private static List<Long> seqs(Paged<JournalRecord> page) {
        return page.items().stream().map(JournalRecord::seq).toList();
    }

    @Test
    default void aJournalRangeReadsEitherWayBetweenItsCursors() {
        Store s = newStore();
        for (int i = 1; i <= 6; i++) {
            s.put(entry(USER, "n" + i, repeat('x', 100)), PutOptions.NONE);
        }
        JournalFilter all = JournalFilter.ALL;
        Paged<JournalRecord> newest = s.journalRange(all, 0, Long.MAX_VALUE, true, 4, 1 << 20);
        assertEquals(List.of(6L, 5L, 4L, 3L), seqs(newest));
        assertTrue(newest.more());
        Paged<JournalRecord> older = s.journalRange(all, 0, 3, true, 4, 1 << 20);
        assertEquals(List.of(2L, 1L), seqs(older));
        assertFalse(older.more());
        Paged<JournalRecord> newer = s.journalRange(all, 2, Long.MAX_VALUE, false, 2, 1 << 20);
        assertEquals(List.of(3L, 4L), seqs(newer));
        assertTrue(newer.more());
        assertEquals(List.of(3L, 4L), seqs(s.journalRange(all, 2, 5, false, 10, 1 << 20)), "both cursors excluded");
        assertFalse(s.journalRange(all, 2, 5, true, 2, 1 << 20).more(), "nothing of the range after the page");
        Paged<JournalRecord> bounded = s.journalRange(all, 0, Long.MAX_VALUE, true, 10, 250);
        assertEquals(List.of(6L, 5L), seqs(bounded), "the page ends before the record over the byte bound");
        assertTrue(bounded.more());
        assertEquals(List.of(6L), seqs(s.journalRange(all, 0, Long.MAX_VALUE, true, 10, 1)), "the first is sent");
        assertTrue(s.journalRange(all, 6, Long.MAX_VALUE, false, 10, 1 << 20).items().isEmpty());
        assertTrue(s.journalRange(all, 3, 4, true, 10, 1 << 20).items().isEmpty(), "an empty range");
    }

    @Test
    default void aJournalRangePicksOneEntryOneScopeOrTheLostUpdates() {
        Store s = newStore();
        String base = s.put(entry(USER, "a", "one"), PutOptions.NONE).change().entry().hash(); // 1
        s.put(entry(PROJECT, "a", "elsewhere"), PutOptions.NONE); // 2
        s.put(entry(USER, "b", "bee"), PutOptions.NONE); // 3
        s.put(entry(USER, "a", "two"), PutOptions.NONE); // 4
        s.put(entry(USER, "a", "three"), PutOptions.NONE.basedOn(base)); // 5: lost 4
        s.forget(USER, "a", PutOptions.NONE); // 6
        s.put(entry(USER, "ab", "a longer name"), PutOptions.NONE); // 7
        long top = Long.MAX_VALUE;
        assertEquals(List.of(6L, 5L, 4L, 1L), seqs(s.journalRange(JournalFilter.entry(USER, "a"), 0, top, true, 10,
                1 << 20)), "one entry's history, its tombstone included, no other scope's or name's");
        assertEquals(List.of(4L, 5L), seqs(s.journalRange(JournalFilter.entry(USER, "a"), 1, 6, false, 10, 1 << 20)));
        assertEquals(List.of(7L, 6L, 5L), seqs(s.journalRange(JournalFilter.scope(USER), 0, top, true, 3, 1 << 20)));
        assertEquals(List.of(2L), seqs(s.journalRange(JournalFilter.scope(PROJECT), 0, top, true, 10, 1 << 20)));
        assertEquals(List.of(5L), seqs(s.journalRange(JournalFilter.LOST, 0, top, true, 10, 1 << 20)));
        assertTrue(s.journalRange(JournalFilter.LOST, 0, 5, true, 10, 1 << 20).items().isEmpty());
        assertTrue(s.journalRange(JournalFilter.entry(USER, "none"), 0, top, true, 10, 1 << 20).items().isEmpty());
    }

    @Test
    default void previousIsTheRecordOfTheSameEntryJustBefore() {
        Store s = newStore();
        Change a1 = s.put(entry(USER, "a", "one"), PutOptions.NONE).change();
        s.put(entry(PROJECT, "a", "elsewhere"), PutOptions.NONE);
        Change a2 = s.put(entry(USER, "a", "two"), PutOptions.NONE).change();
        Change gone = s.forget(USER, "a", PutOptions.NONE).change();
        Change a3 = s.put(entry(USER, "a", "back"), PutOptions.NONE).change();
        Change b1 = s.put(entry(USER, "b", "bee"), PutOptions.NONE).change();
        Map<Long, Change> previous = s.previous(List.of(a3, a2, b1, gone, a1));
        assertEquals(Map.of(a2.seq(), a1, gone.seq(), a2, a3.seq(), gone), previous);
        assertEquals(a2.entry().hash(), previous.get(gone.seq()).entry().hash());
        assertEquals(Map.of(), s.previous(List.of()));
    }

    @Test
    default void discardedHoldsTheWritesALostUpdateOverwroteUnseen() {
        Store s = newStore();
        Change base = s.put(entry(USER, "style", "Prefers short answers."), PutOptions.NONE).change();
        Change b = s.put(entry(USER, "style", "Short answers & tabs."), PutOptions.NONE.session("b")).change();
        Change c = s.put(entry(USER, "style", "Short answers and tabs."), PutOptions.NONE.session("b")).change();
        Change lost = s.put(entry(USER, "style", "Short answers. Bristol."),
                PutOptions.NONE.basedOn(base.entry().hash()).session("a")).change();
        Discarded d = LostUpdates.discarded(s, lost, 10);
        assertEquals(java.util.Optional.of(base), d.base());
        assertEquals(List.of(b, c), d.overwritten());
        assertTrue(d.complete());
        assertEquals("Prefers short answers.", d.baseContent());
        assertEquals("Short answers and tabs.", d.overwrittenContent());
        Discarded cut = LostUpdates.discarded(s, lost, 1);
        assertEquals(List.of(c), cut.overwritten());
        assertFalse(cut.complete(), "the base lies beyond the records looked through");
        assertEquals(List.of(), LostUpdates.discarded(s, c, 10).overwritten(), "a write that lost nothing");

        s.forget(USER, "style", PutOptions.NONE);
        Change revived = s.put(entry(USER, "style", "edited"), PutOptions.NONE.basedOn(lost.entry().hash()))
                .change();
        Discarded overForget = LostUpdates.discarded(s, revived, 10);
        assertEquals(lost.seq(), overForget.base().orElseThrow().seq());
        assertEquals(1, overForget.overwritten().size());
        assertTrue(overForget.overwritten().get(0).entry().deleted(), "it overwrote a forget");
        assertEquals("", overForget.overwrittenContent());
    }
}
