package dev.engram.memories;

import static dev.engram.memories.RecallCases.ALICE;
import static dev.engram.memories.RecallCases.memory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Note;
import dev.engram.kernel.Invalid;
import dev.engram.entries.Stores;
import dev.engram.memories.RecallCases.Scripted;
import dev.engram.memories.persistence.PgRecalls;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The contract of memories over PostgreSQL, and what only PostgreSQL does: the journal records every change. */
@QuarkusTest
class PgRecallTest extends RecallContract {

    @Inject
    PgRecalls recalls;

    @Inject
    Stores stores;

    @Inject
    io.agroal.api.AgroalDataSource db;

    String store;

    @Override
    public Recall newRecall() {
        recalls.clock(clock);
        store = "recall-" + UUID.randomUUID().toString().substring(0, 8);
        return recalls.in(store);
    }

    @AfterEach
    void systemClock() {
        recalls.clock(Clock.systemUTC());
    }

    @Test
    void everyChangeIsAJournalRecordInTheStoresOneJournalAndARefusalIsNone() {
        Recall r = newRecall();
        stores.store(store).put(dev.engram.entries.Entry.draft(dev.engram.kernel.Scope.of("user"), "style", "Short.",
                java.util.Map.of()), dev.engram.entries.PutOptions.NONE);
        r.save(memory("a", new Bank("user", "alice"), "Apollo ships on Friday.", 0.8));
        r.access("a");
        r.search(SearchOptions.of("apollo"));
        r.revise("a", "leo", "checked");
        r.archive("a", "done");
        r.unarchive("a");
        r.save(memory("b", new Bank("user", "alice"), "Apollo slipped.", 0.8));
        r.supersede("a", "b");
        assertThrows(Invalid.class, () -> r.save(memory("c", Bank.GLOBAL, " ", 0.5)));
        assertThrows(Invalid.class, () -> r.supersede("b", "nowhere"));
        r.delete("b");
        r.clear();
        r.clear();
        List<JournalRecord> journal = stores.store(store).journal(0, 100);
        assertEquals(List.of("entry", "memory.saved", "memory.revised", "memory.archived", "memory.unarchived",
                "memory.saved", "memory.superseded", "memory.deleted", "memories.cleared"),
                journal.stream().map(PgRecallTest::kind).toList());
        for (int i = 0; i < journal.size(); i++) {
            assertEquals(i + 1, journal.get(i).seq(), "gapless");
        }
        assertTrue(note(journal.get(1)).body().matches(".*\"content\": ?\"Apollo ships on Friday\\.\".*"),
                note(journal.get(1)).body());
        assertTrue(note(journal.get(8)).body().matches(".*\"count\": ?1\\b.*"),
                note(journal.get(8)).body());
    }

    @Test
    void aReflectionIsOneRecordPerChangeAndAFailedOneIsNone() {
        Recall r = newRecall();
        r.save(memory("f1", ALICE, "one", 0.5));
        r.save(memory("f2", ALICE, "two", 0.5));
        String old = reflect(r, ALICE, new Scripted((facts, existing) -> List.of(
                new Observation("One and two.", 0.6, List.of("f1", "f2"), false, "")))).newIds().get(0);
        r.save(memory("f3", ALICE, "three", 0.5));
        r.save(memory("f4", ALICE, "four", 0.5));
        int before = stores.store(store).journal(0, 100).size();
        assertThrows(dev.engram.kernel.ReflectionFailed.class, () -> reflect(r, ALICE, new Scripted(
                (facts, existing) -> List.of(new Observation("Fine.", 0.5, List.of("f3", "f4"), false, ""),
                        new Observation("Bad.", 0.5, List.of("f3", "ghost"), false, "")))));
        assertEquals(before, stores.store(store).journal(0, 100).size(), "a failed reflection writes no record");
        String fresh = reflect(r, ALICE, new Scripted((facts, existing) -> List.of(
                new Observation("Three and four.", 0.6, List.of("f3", "f4"), false, ""),
                new Observation("One to four.", 0.7, List.of("f1", "f2", "f3", "f4"), false, old)))).newIds().get(1);
        List<JournalRecord> journal = stores.store(store).journal(0, 100);
        assertEquals(List.of("memory.saved", "memory.saved", "memory.saved", "memory.saved", "memory.saved",
                "memory.saved", "memory.saved", "memory.superseded"),
                journal.stream().map(PgRecallTest::kind).toList());
        assertEquals(fresh, note(journal.get(6)).key());
        assertEquals(old, note(journal.get(7)).key());
        assertTrue(note(journal.get(7)).body().contains("\"superseded_by\": \"" + fresh + "\""),
                note(journal.get(7)).body());
        for (int i = 0; i < journal.size(); i++) {
            assertEquals(i + 1, journal.get(i).seq(), "gapless");
        }
    }

    @Test
    void concurrentSavesAndDeletesOfOneIdKeepTheCountAndTheJournalInStep() throws Exception {
        Recall r = newRecall();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
            for (int i = 0; i < 40; i++) {
                int n = i;
                done.add(pool.submit(() -> {
                    if (n % 5 == 4) {
                        try {
                            r.delete("same");
                        } catch (dev.engram.kernel.NotFound gone) {
                            // a delete that came first
                        }
                    } else {
                        r.save(memory("same", ALICE, "version " + n, 0.5));
                    }
                }));
            }
            for (var f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        List<JournalRecord> journal = stores.store(store).journal(0, 100);
        for (int i = 0; i < journal.size(); i++) {
            assertEquals(i + 1, journal.get(i).seq(), "gapless");
        }
        long saves = journal.stream().filter(c -> note(c).kind().equals("memory.saved")).count();
        assertEquals(32, saves, "every save landed once");
        boolean held = note(journal.get(journal.size() - 1)).kind().equals("memory.saved");
        assertEquals(held ? 1 : 0, r.list(10, 0).total());
        try (var c = db.getConnection(); var s = c.prepareStatement(
                "select memories from store where id = ?")) {
            s.setString(1, store);
            try (var rs = s.executeQuery()) {
                rs.next();
                assertEquals(held ? 1 : 0, rs.getInt(1), "the store's count is the rows it holds");
            }
        }
    }

    /** The kind of a record: a memory's note's, or "entry". */
    private static String kind(JournalRecord r) {
        return r instanceof JournalRecord.MemoryNote m ? m.note().kind() : "entry";
    }

    /** The note of a memory's record. */
    private static Note note(JournalRecord r) {
        return ((JournalRecord.MemoryNote) r).note();
    }

    /**
     * A store read whole into the recall index in pages of {@code PgRecallIndexes.PAGE_SIZE} (5,000): the first
     * memory, those either side of a page's end and the last are each found, and a memory saved after the read is
     * found too (the change number the pages read is the one the next read starts from).
     */
    @Test
    void aStoreOfMoreMemoriesThanOnePageIsReadWholeAndKeptCurrent() throws Exception {
        Recall r = newRecall();
        int n = 12_001;
        try {
            sql("insert into store (id, seq, max_entry_bytes) values ('" + store + "', 0, 4096)");
            seed("p", "Zebra", n);
            for (int i : new int[] {1, 4999, 5000, 5001, 10_000, 10_001, n}) {
                List<String> found = RecallCases.ids(r.search(SearchOptions.of("zebra " + i)));
                assertEquals(String.format("p-%05d", i), found.get(0), "zebra " + i);
            }
            r.save(memory("late", ALICE, "A quagga arrived after the read.", 0.5));
            assertEquals(List.of("late"), RecallCases.ids(r.search(SearchOptions.of("quagga"))));
        } finally {
            forgetSeeded();
        }
    }

    /**
     * More changes than {@code PgRecallIndexes.MOST_CHANGES} (20,000) since a store's last search: it is read whole
     * again, in pages, and every change is seen: the memory saved before them, those written straight to the table,
     * and one deleted among them.
     */
    @Test
    void aBulkOfChangesSinceTheLastSearchIsReadAndNothingIsMissed() throws Exception {
        Recall r = newRecall();
        int n = 20_500;
        try {
            r.save(memory("early", ALICE, "An okapi stood by the river.", 0.5));
            assertEquals(List.of("early"), RecallCases.ids(r.search(SearchOptions.of("okapi"))));
            seed("b", "Gazelle", n);
            sql("delete from memory where store_id = '" + store + "' and id = 'b-00007'");
            for (int i : new int[] {1, 5001, 20_000, n}) {
                assertEquals(String.format("b-%05d", i), RecallCases.ids(r.search(SearchOptions.of("gazelle " + i)))
                        .get(0), "gazelle " + i);
            }
            assertEquals(List.of("early"), RecallCases.ids(r.search(SearchOptions.of("okapi"))));
            assertTrue(RecallCases.ids(r.search(SearchOptions.of("gazelle 7"))).stream()
                    .noneMatch("b-00007"::equals));
        } finally {
            forgetSeeded();
        }
    }

    /** {@code n} memories of alice written straight to the table: "{@code word} number i", id prefix-0000i. */
    private void seed(String prefix, String word, int n) throws java.sql.SQLException {
        sql("insert into memory (store_id, id, bank, scope_type, scope_id, type, content, importance, confidence, "
                + "tags, keywords, evidence, source, valid_from, superseded_by, conflicting, archived, archive_reason, "
                + "revisions, created_at, updated_at, haystack) select '" + store + "', '" + prefix + "-' || "
                + "lpad(i::text, 5, '0'), 'user:alice', 'user', 'alice', 'fact', c, 0.5, 0, '{}', '{}', '{}', "
                + "'user_input', now(), '', false, false, '', '[]', now() - i * interval '1 second', now(), "
                + "lower(c) || '  ' from generate_series(1, " + n + ") i, lateral (select '" + word
                + " number ' || i || '.' as c) t");
    }

    /**
     * Deletes the store's memories: left, they would wait to be embedded when a test with the local model starts
     * (it queues every memory without a vector) and hold its own memories up.
     */
    private void forgetSeeded() throws java.sql.SQLException {
        sql("delete from memory where store_id = '" + store + "'");
        sql("delete from embed_queue where store_id = '" + store + "'");
    }

    private void sql(String statement) throws java.sql.SQLException {
        try (java.sql.Connection c = db.getConnection(); java.sql.Statement st = c.createStatement()) {
            st.execute(statement);
        }
    }
}
