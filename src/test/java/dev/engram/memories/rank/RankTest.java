package dev.engram.memories.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The ranking engine without a store: terms, BM25, similarity, context and the factors. */
class RankTest {

    static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");

    private long order;

    private Indexed memory(String id, String text, float[] vector) {
        return memory(id, "user:alice", text, vector, NOW, 0.5);
    }

    private Indexed memory(String id, String bank, String text, float[] vector, Instant created, double importance) {
        return new Indexed(id, bank, "fact", false, false, importance, 0, created, ++order, text, "m", vector);
    }

    static RankQuery query(Ranking ranking, String text, float[] vector) {
        return new RankQuery(ranking, Terms.ofQuery(text), vector, "m", "", false, false, "", Set.of(), 10, 0, NOW);
    }

    static List<String> ids(List<Ranked> ranked) {
        return ranked.stream().map(Ranked::id).toList();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"running,run", "runs,run", "planned,plan", "baked,bak", "bake,bak", "baking,bak", "cities,citi",
        "city,citi", "boxes,box", "called,call", "stays,stay", "glass,glass", "bus,bus", "v2,v2", "go,go"})
    void inflectionsOfAWordMeet(String word, String stem) {
        assertEquals(stem, Stemmer.stem(word));
    }

    @Test
    void stopWordsAreLeftOutUnlessTheQueryHasNothingElse() {
        assertEquals(List.of("carolin", "go", "support", "group"), Terms.ofQuery("When did Caroline go to the "
                + "support groups?"));
        assertEquals(List.of("who", "is", "she"), Terms.ofQuery("Who is she?"));
        assertEquals(List.of("run", "run"), Terms.ofDocument("Running, she runs."));
    }

    @Test
    void aRareWordOutweighsCommonOnesAndALongMemoryCountsLess() {
        RecallIndex index = new RecallIndex();
        index.put(memory("rare", "Caroline went to the adoption agency.", null));
        for (int i = 0; i < 20; i++) {
            index.put(memory("c" + i, "Caroline went to the park and went home.", null));
        }
        index.put(memory("long", "The adoption agency " + "and a great many other things ".repeat(40), null));
        List<String> found = ids(index.rank(query(Ranking.LEXICAL, "Caroline adoption agency", null)));
        assertEquals("rare", found.get(0));
        assertEquals("long", found.get(1), "the rare words outweigh Caroline, but length counts against");
    }

    @Test
    void aLongQueryKeepsItsMostInformativeTerms() {
        RecallIndex index = new RecallIndex();
        index.put(memory("x", "zebra w0", null));
        List<String> common = java.util.stream.IntStream.range(0, 40).mapToObj(j -> "w" + j).toList();
        for (int i = 0; i < 10; i++) {
            index.put(memory("c" + i, String.join(" ", common), null));
        }
        String all = String.join(" ", common) + " zebra";
        assertTrue(Terms.ofQuery(all).size() > RecallIndex.MAX_QUERY_TERMS);
        String kept = "zebra " + String.join(" ", common.subList(1, RecallIndex.MAX_QUERY_TERMS)); // w0 is commonest
        List<Ranked> long1 = index.rank(query(Ranking.LEXICAL, all, null));
        List<Ranked> short1 = index.rank(query(Ranking.LEXICAL, kept, null));
        assertEquals(ids(short1), ids(long1));
        for (int i = 0; i < long1.size(); i++) {
            assertEquals(short1.get(i).explain().lexical(), long1.get(i).explain().lexical(), 1e-12);
        }
    }

    @Test
    void similarityFindsAMemorySharingNoWordAndOneNotEmbeddedRanksByItsWords() {
        RecallIndex index = new RecallIndex();
        index.put(memory("car", "I bought a new car", new float[] {1, 0, 0}));
        index.put(memory("cake", "Baking a cake", new float[] {0, 1, 0}));
        index.put(memory("pending", "automobile insurance renewal", null));
        List<Ranked> semantic = index.rank(query(Ranking.SEMANTIC, "automobile purchase", new float[] {1, 0, 0}));
        assertEquals("car", semantic.get(0).id());
        List<Ranked> hybrid = index.rank(query(Ranking.HYBRID, "automobile purchase", new float[] {1, 0, 0}));
        assertEquals(Set.of("car", "pending"), Set.copyOf(ids(hybrid.subList(0, 2))));
        Explain pending = hybrid.stream().filter(r -> r.id().equals("pending")).findFirst().orElseThrow().explain();
        assertNull(pending.semantic());
        assertTrue(pending.note().contains("1 of 3 memories are not embedded yet"), pending.note());
    }

    @Test
    void withoutAQueryVectorHybridRanksLexicallyAndSaysWhy() {
        RecallIndex index = new RecallIndex();
        index.put(memory("a", "lighthouse", new float[] {1, 0}));
        RankQuery q = new RankQuery(Ranking.HYBRID, Terms.ofQuery("lighthouse"), null, "m", "the provider timed out",
                false, false, "", Set.of(), 10, 0, NOW);
        Ranked r = index.rank(q).get(0);
        assertEquals("a", r.id());
        assertEquals("the provider timed out", r.explain().note());
        assertNull(r.explain().semantic());
    }

    @Test
    void aNeighbourThatMatchesLiftsAMemoryButDoesNotBringOneThatDoesNot() {
        RecallIndex index = new RecallIndex();
        index.put(memory("before", "I made this stained glass window.", null));
        index.put(memory("turn", "It was made for a local church.", null));
        index.put(memory("other", "The window of the local shop.", null));
        index.put(memory("apart", "A stained glass lamp at the market.", null));
        List<Ranked> found = index.rank(query(Ranking.HYBRID, "stained glass window church", null));
        assertEquals("before", found.get(0).id(), "its neighbour matches church");
        assertTrue(found.get(0).explain().context() > 0);
        List<Ranked> lexical = index.rank(query(Ranking.LEXICAL, "stained glass window church", null));
        assertEquals(0, lexical.get(0).explain().context(), "context is the hybrid's");
        RecallIndex alone = new RecallIndex();
        alone.put(memory("q", "zebra", null));
        alone.put(memory("next", "nothing in common", null));
        assertEquals(List.of("q"), ids(alone.rank(query(Ranking.HYBRID, "zebra", null))));
    }

    @Test
    void ageWeighsLightlySoAnOldFactThatAnswersStillComesFirst() {
        RecallIndex index = new RecallIndex();
        index.put(memory("old", "user:alice", "Melanie's pottery class is on Thursdays.", null,
                NOW.minus(Duration.ofDays(400)), 0.5));
        index.put(memory("new", "user:alice", "Melanie talked about a class.", null, NOW, 0.5));
        List<Ranked> found = index.rank(query(Ranking.HYBRID, "When is Melanie's pottery class?", null));
        assertEquals(List.of("old", "new"), ids(found));
        assertTrue(found.get(0).explain().recency() < found.get(1).explain().recency());
    }

    @Test
    void filtersAndStatisticsAreThoseOfTheBanksSearched() {
        RecallIndex index = new RecallIndex();
        index.put(memory("a", "user:alice", "zebra crossing", null, NOW, 0.5));
        index.put(memory("b", "user:bob", "zebra", null, NOW, 0.5));
        RankQuery alice = new RankQuery(Ranking.LEXICAL, Terms.ofQuery("zebra"), null, "m", "", false, false, "",
                Set.of("user:alice"), 10, 0, NOW);
        assertEquals(List.of("a"), ids(index.rank(alice)));
        index.remove("a");
        assertEquals(List.of(), ids(index.rank(alice)));
        assertFalse(index.rank(query(Ranking.LEXICAL, "zebra", null)).isEmpty());
    }

    @Test
    void aSearchOfOneBankScoresAsASearchOfEveryBankDoes() {
        RecallIndex index = new RecallIndex();
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 50; i++) {
            float[] v = new float[8];
            for (int j = 0; j < v.length; j++) {
                v[j] = random.nextFloat() - 0.5f;
            }
            index.put(memory("m" + i, "user:alice", "note " + i + (i % 3 == 0 ? " zebra" : ""),
                    i % 5 == 0 ? null : Embedder.unit(v, 8).orElseThrow(), NOW, 0.5));
        }
        float[] q = Embedder.unit(new float[] {1, 0, 0, 0, 0, 0, 0, 1}, 8).orElseThrow();
        for (Ranking r : List.of(Ranking.HYBRID, Ranking.SEMANTIC, Ranking.LEXICAL)) {
            List<Ranked> every = index.rank(new RankQuery(r, Terms.ofQuery("zebra note"), q, "m", "", false, false,
                    "", Set.of(), 10, 0, NOW));
            List<Ranked> one = index.rank(new RankQuery(r, Terms.ofQuery("zebra note"), q, "m", "", false, false,
                    "", Set.of("user:alice"), 10, 0, NOW));
            assertEquals(ids(every), ids(one), r.toString());
            for (int i = 0; i < every.size(); i++) {
                assertEquals(every.get(i).score(), one.get(i).score(), 1e-6, r.toString());
            }
        }
    }
}
