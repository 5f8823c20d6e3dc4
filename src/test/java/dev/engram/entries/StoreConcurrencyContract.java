package dev.engram.entries;

import static dev.engram.entries.StoreCases.PROJECT;
import static dev.engram.entries.StoreCases.USER;
import static dev.engram.entries.StoreCases.all;
import static dev.engram.entries.StoreCases.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.kernel.Conflict;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The conformance cases of a {@link Store} under concurrent writers and across a reopening (part of
 * {@link StoreContract}): Concurrent and Persistence.
 */
public interface StoreConcurrencyContract extends StoreUnderTest {

    // ---------------------------------------------------------------------------------------------- Concurrent

    @Test
    default void concurrentConditionalAppendsAllSurviveWithAContiguousChain() throws Exception {
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
    default void concurrentWritersToManyEntriesGetDistinctContiguousSeqs() throws Exception {
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
    default void reopenedStoreHoldsTheSameEntriesAndJournal() {
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
