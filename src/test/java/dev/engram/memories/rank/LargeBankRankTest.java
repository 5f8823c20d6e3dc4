package dev.engram.memories.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Searches of a large bank, which read candidates from postings and vector lists rather than every memory, against
 * the same searches of every memory: an index whose large banks start at 1,000 memories, beside one that has none.
 */
class LargeBankRankTest {

    private static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");
    private static final String BANK = "user:big";
    private static final int SIZE = 4000;
    private static final int DIMENSIONS = 16;
    private static final String[] WORDS = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"};

    private final Random random = new Random(42);
    private final RecallIndex candidates = new RecallIndex(1000);
    private final RecallIndex everything = new RecallIndex(Integer.MAX_VALUE);
    private float[][] vectors;
    private long order;

    @BeforeEach
    void fill() {
        vectors = new float[SIZE][];
        for (int i = 0; i < SIZE; i++) {
            vectors[i] = unit();
            // two of eight common words, a word of its own, and "common" in every memory
            String text = "Memory uniq" + i + " about " + WORDS[i % 8] + " and " + WORDS[(i * 3 + 1) % 8]
                    + ", a common note.";
            put(new Indexed("m" + i, BANK, i % 1000 == 7 ? "preference" : "fact", false, false, 0.5, 0,
                    NOW.minusSeconds(SIZE - i), ++order, text, "m", vectors[i]));
        }
    }

    private void put(Indexed m) {
        candidates.put(m);
        everything.put(m);
    }

    private float[] unit() {
        return UnitVectors.next(random, DIMENSIONS);
    }

    private static RankQuery query(Ranking ranking, String text, float[] vector, String type, boolean archived) {
        return new RankQuery(ranking, Terms.ofQuery(text), vector, "m", "", archived, false, type, Set.of(BANK), 10,
                0, NOW);
    }

    private static List<String> ids(List<Ranked> ranked) {
        return ranked.stream().map(Ranked::id).toList();
    }

    @Test
    void aWordOfOneMemoryFindsItFirst() {
        List<Ranked> found = candidates.rank(query(Ranking.LEXICAL, "uniq1234 common", null, "", false));
        assertEquals("m1234", found.get(0).id());
        assertEquals(ids(everything.rank(query(Ranking.LEXICAL, "uniq1234 common", null, "", false))).get(0),
                found.get(0).id());
    }

    @Test
    void aTermHeldByMoreMemoriesThanAreReadStillFindsWhereItWeighsMost() {
        // "common" is in all 4,000, far more than the 1,000 of its list a search reads: the memory that says it
        // three times in few words is at the head of the list, whatever its position in the bank
        put(new Indexed("dense", BANK, "fact", false, false, 0.5, 0, NOW.minusSeconds(SIZE + 10), ++order,
                "common common common", "m", unit()));
        assertEquals("dense", candidates.rank(query(Ranking.LEXICAL, "common", null, "", false)).get(0).id());
        assertEquals("dense", everything.rank(query(Ranking.LEXICAL, "common", null, "", false)).get(0).id());
    }

    @Test
    void aMemorysOwnVectorFindsItFirst() {
        for (int i : new int[] {0, 777, 2500, 3999}) {
            List<Ranked> found = candidates.rank(query(Ranking.SEMANTIC, "", vectors[i], "", false));
            assertEquals("m" + i, found.get(0).id(), "the vector of m" + i);
        }
    }

    @Test
    void theSemanticResultsMostlyAgreeWithASearchOfEveryMemory() {
        int agreed = 0;
        int asked = 0;
        for (int t = 0; t < 20; t++) {
            float[] v = unit();
            Set<String> exact = new HashSet<>(ids(everything.rank(query(Ranking.SEMANTIC, "", v, "", false))));
            for (String id : ids(candidates.rank(query(Ranking.SEMANTIC, "", v, "", false)))) {
                agreed += exact.contains(id) ? 1 : 0;
            }
            asked += exact.size();
        }
        // 32 lists of about 125 vectors, 8 of them probed: a quarter of the bank read. Random vectors in 16
        // dimensions have no clusters, the hardest case for lists; this seed finds 176 of the 200
        assertTrue(agreed >= asked * 0.8, agreed + " of " + asked + " of the exact top ten found");
        // and the lists were what was read: a search of every memory would agree on all of them
        assertTrue(agreed < asked, "the large bank was searched whole");
    }

    @Test
    void aHybridQueryFindsTheMemoryOfItsWordsAndItsMeaning() {
        List<Ranked> found = candidates.rank(query(Ranking.HYBRID, "uniq321 bravo", vectors[321], "", false));
        assertEquals("m321", found.get(0).id());
        assertEquals("m321", everything.rank(query(Ranking.HYBRID, "uniq321 bravo", vectors[321], "", false))
                .get(0).id());
    }

    @Test
    void filtersHoldAndTooFewCandidatesSearchEveryMemory() {
        put(new Indexed("m55", BANK, "fact", true, false, 0.5, 0, NOW, ++order, "Memory uniq55 archived", "m",
                vectors[55]));
        assertFalse(ids(candidates.rank(query(Ranking.LEXICAL, "uniq55", null, "", false))).contains("m55"));
        assertEquals("m55", candidates.rank(query(Ranking.LEXICAL, "uniq55", null, "", true)).get(0).id());
        // four preferences in 4,000 memories: the head of "common" holds fewer than ten, so every memory is searched
        List<String> preferences = ids(candidates.rank(query(Ranking.LEXICAL, "common", null, "preference", false)));
        assertEquals(Set.of("m7", "m1007", "m2007", "m3007"), Set.copyOf(preferences));
    }

    @Test
    void aMemorySavedAfterTheListsWereBuiltIsFound() {
        candidates.rank(query(Ranking.SEMANTIC, "", vectors[1], "", false));
        float[] v = unit();
        put(new Indexed("late", BANK, "fact", false, false, 0.5, 0, NOW, ++order, "A late word zulu", "m", v));
        assertEquals("late", candidates.rank(query(Ranking.SEMANTIC, "", v, "", false)).get(0).id());
        assertEquals("late", candidates.rank(query(Ranking.LEXICAL, "zulu", null, "", false)).get(0).id());
        candidates.remove("late");
        assertFalse(ids(candidates.rank(query(Ranking.LEXICAL, "zulu uniq5", null, "", false))).contains("late"));
    }
}
