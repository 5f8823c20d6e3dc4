package dev.engram.memories.rank;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** BM25 of texts outside an index: the same scores as the memories' index gives the same texts. */
class Bm25Test {

    private static final List<String> TEXTS = List.of(
            "The deploy script runs after review, then the team waits for the checks and the release notes.",
            "Deploy, deploy, deploy: deploy on green.",
            "Deploys are frozen on Fridays; a deployed build stays until Monday.",
            "Nothing here about shipping.",
            "Rollback plan: redeploy the previous build and page the on-call.");

    @Test
    void scoresAsTheRecallIndexRanksLexically() {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        RecallIndex index = new RecallIndex();
        for (int i = 0; i < TEXTS.size(); i++) {
            index.put(new Indexed("m" + i, "global", "world", false, false, 0.5, 0, now, i, TEXTS.get(i), null,
                    null));
        }
        for (String query : List.of("deploy", "deploy build", "build Fridays", "previous build page")) {
            Map<String, Double> lexical = index.rank(new RankQuery(Ranking.LEXICAL, Terms.ofQuery(query), null, "",
                    "", true, true, "", Set.of(), 100, 0, now)).stream()
                    .collect(Collectors.toMap(Ranked::id, r -> r.explain().lexical()));
            Bm25 bm25 = new Bm25(query);
            TEXTS.forEach(bm25::add);
            double[] scores = bm25.scores();
            for (int i = 0; i < TEXTS.size(); i++) {
                assertEquals(lexical.getOrDefault("m" + i, 0.0), scores[i], 1e-12, query + ", text " + i);
            }
        }
    }

    @Test
    void bestRanksByScoreAndKeepsTheOrderAddedForEqualScores() {
        Bm25 bm25 = new Bm25("deploy");
        List.of("deploy later", "no match", "deploy deploy", "deploy later", "deploy later").forEach(bm25::add);
        assertEquals(5, bm25.size());
        assertArrayEquals(new int[] {2, 0, 3, 4, 1}, bm25.best());
    }

    @Test
    void aQueryOfStopWordsOnlyHasTermsNoTextHolds() {
        Bm25 stop = new Bm25("the and of");
        assertFalse(stop.hasTerms(), "a query of stop words keeps them, and no text holds them");
        stop.add("the end of the road");
        assertEquals(0, stop.scores()[0], "a document keeps no stop words");
        assertTrue(new Bm25("the road").hasTerms());
        Bm25 none = new Bm25("%% !!");
        assertFalse(none.hasTerms());
        none.add("anything");
        none.add("at all");
        assertArrayEquals(new int[] {0, 1}, none.best());
    }
}
