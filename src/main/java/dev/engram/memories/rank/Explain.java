package dev.engram.memories.rank;

/**
 * How a memory's score was made, when a search asks ({@code explain}): its BM25 score and rank among the lexical
 * matches (null when it matched no term), its cosine similarity and rank among the nearest (null when it or the query
 * has no vector), its match (the two fused), the better match of its neighbours ({@code context}), the fused score,
 * the three factors and the final score; {@code note} says what was missing, for example that the query could not be
 * embedded and the search fell back to lexical ranking. See {@link Fusion}.
 */
public record Explain(String ranking, Double lexical, Integer lexicalRank, Double semantic, Integer semanticRank,
        double match, double context, double fused, double importance, double confidence, double recency,
        double score, String note) {
}
