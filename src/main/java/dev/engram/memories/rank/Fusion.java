package dev.engram.memories.rank;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How the lexical and the semantic ranking make one score.
 *
 * <ol>
 * <li><b>Match</b>: {@code a·bm25 / (best + D) + (1 − a)·cosine}, {@code a} = {@value #LEXICAL_WEIGHT} and
 * {@code D} = {@value #LEXICAL_DAMPING}, where {@code best} is the query's best BM25 score among the memories
 * searched: relative to the best, and damped when even the best is weak (a question whose words the memories do not
 * use, because they say it otherwise, leaves its answer to the similarity). A memory not embedded yet, or a query
 * that could not be embedded, counts {@code bm25 / best} alone; the lexical and semantic rankings use their own part
 * alone.</li>
 * <li><b>Context</b> (hybrid only): plus {@value #CONTEXT_WEIGHT} × the better match of the memory's two neighbours
 * in its bank, the sum divided by {@code 1 + }{@value #CONTEXT_WEIGHT} so that scores stay at most 1 (the memories saved just before and just after it). A conversation saved turn by turn answers a
 * question across two turns ("It was made for a local church." after "I made this stained glass window."), and the
 * turn that matches the question's words is often the other one. A memory is a result only when it matches itself
 * (any similarity counts): its neighbours lift it, they do not bring it.</li>
 * <li><b>Factors</b>, each between {@code 1 − w} and 1: importance ({@code w} {@value #IMPORTANCE_WEIGHT}, the seed's
 * boost {@code 0.5 + 0.5·importance} over its range), confidence ({@value #CONFIDENCE_WEIGHT}, only when a memory has
 * one) and age ({@value #RECENCY_WEIGHT}, the seed's decay {@code e^(−0.007·days)}). Mild on purpose: the seed
 * multiplies by its decay, so a year-old fact that answers the question ranks below a fresh one that barely does.</li>
 * </ol>
 *
 * <p>Scores are fused, not ranks: reciprocal-rank fusion was measured too and found less (recall@10 0.59 against
 * 0.67 on the development set, docs/recall.md), since it forgets by how much the first result leads.
 */
final class Fusion {

    /** How deep each list is read for candidates. */
    static final int DEPTH = 100;
    /** How many of the best matches bring their neighbours in as candidates. */
    static final int NEIGHBOURED = 20;
    static final double LEXICAL_WEIGHT = 0.5;
    /** How weak a query's best BM25 score must be for its lexical part to count half. */
    static final double LEXICAL_DAMPING = 20;
    static final double CONTEXT_WEIGHT = 0.3;
    static final double IMPORTANCE_WEIGHT = 0.2;
    static final double CONFIDENCE_WEIGHT = 0.1;
    static final double RECENCY_WEIGHT = 0.1;

    private Fusion() {
    }

    /** One memory of either list: its BM25 score and rank, its similarity and rank (null: none). */
    record Candidate(Indexed memory, Double lexical, Integer lexicalRank, Double semantic, Integer semanticRank) {
    }

    /** The neighbours of a memory in its bank, as candidates (an empty list when it has none). */
    interface Neighbours {
        List<Candidate> of(Indexed m);
    }

    static List<Ranked> fuse(RankQuery q, List<Candidate> candidates, Neighbours neighbours, String note) {
        double bestLexical = candidates.stream().filter(c -> c.lexical() != null).mapToDouble(Candidate::lexical)
                .max().orElse(0);
        Map<String, Candidate> all = new HashMap<>();
        candidates.forEach(c -> all.put(c.memory().id(), c));
        boolean context = q.ranking() == Ranking.HYBRID;
        if (context) {
            candidates.stream().sorted(Comparator.comparingDouble((Candidate c) -> -match(q, c, bestLexical))
                    .thenComparing(c -> c.memory().id())).limit(NEIGHBOURED)
                    .forEach(c -> neighbours.of(c.memory()).forEach(n -> all.putIfAbsent(n.memory().id(), n)));
        }
        List<Ranked> ranked = new ArrayList<>();
        for (Candidate c : all.values()) {
            double match = match(q, c, bestLexical);
            double around = 0;
            if (context) {
                for (Candidate n : neighbours.of(c.memory())) {
                    around = Math.max(around, match(q, n, bestLexical));
                }
            }
            double fused = (match + CONTEXT_WEIGHT * around) / (1 + CONTEXT_WEIGHT);
            Indexed m = c.memory();
            double importance = factor(IMPORTANCE_WEIGHT, (Relevance.boost(m.importance()) - 0.5) / 0.5);
            double confidence = m.confidence() > 0 ? factor(CONFIDENCE_WEIGHT, Math.min(1, m.confidence())) : 1;
            double recency = factor(RECENCY_WEIGHT, Relevance.decay(RecallIndex.days(m, q)));
            double score = fused * importance * confidence * recency;
            if (match > 0 && score >= q.minScore()) {
                ranked.add(new Ranked(m.id(), score, new Explain(q.ranking().wire(), c.lexical(), c.lexicalRank(),
                        c.semantic(), c.semanticRank(), match, around, fused, importance, confidence, recency, score,
                        note)));
            }
        }
        ranked.sort(Comparator.comparingDouble(Ranked::score).reversed().thenComparing(Ranked::id));
        return ranked.subList(0, Math.min(q.topK(), ranked.size()));
    }

    /** The match part of a candidate's score under the query's ranking. */
    static double match(RankQuery q, Candidate c, double bestLexical) {
        double lexical = c.lexical() == null || bestLexical <= 0 ? 0 : c.lexical() / bestLexical;
        double semantic = c.semantic() == null ? 0 : Math.max(0, c.semantic());
        if (q.ranking() == Ranking.LEXICAL || q.vector() == null) {
            return lexical;
        }
        if (q.ranking() == Ranking.SEMANTIC) {
            return semantic;
        }
        double damped = c.lexical() == null ? 0 : c.lexical() / (bestLexical + LEXICAL_DAMPING);
        return c.semantic() == null ? lexical : LEXICAL_WEIGHT * damped + (1 - LEXICAL_WEIGHT) * semantic;
    }

    /** {@code 1 − w + w·x}: 1 for x = 1, {@code 1 − w} for x = 0. */
    private static double factor(double w, double x) {
        return 1 - w + w * Math.max(0, Math.min(1, x));
    }
}
