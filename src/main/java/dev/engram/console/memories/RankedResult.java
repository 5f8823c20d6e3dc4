package dev.engram.console.memories;

import dev.engram.memories.Scored;
import dev.engram.memories.rank.Explain;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One result of the recall playground: the memory, its score, and how the score was made as parts, each with its
 * value and its share (0 to 1) for a bar. A part that is a raw score (BM25) is shared against the best of the results,
 * the others are already 0 to 1. A result of the seed's ranking has no parts.
 */
public record RankedResult(int rank, MemoryView view, double score, List<ScorePart> parts) {

    /**
     * One part of a score.
     *
     * @param value the part as text (three decimals, with its rank among the matches when it has one), or "none"
     * @param share from 0 to 1, for the bar
     */
    public record ScorePart(String name, String value, double share) {
    }

    /** The names of the parts, in the order a result lists them. */
    public static final List<String> PARTS = List.of("Lexical (BM25)", "Semantic (cosine)", "Match", "Context",
            "Fused", "Importance ×", "Confidence ×", "Recency ×");

    public RankedResult {
        parts = List.copyOf(parts);
    }

    /** The results of a search, ranked from 1, their BM25 scores shared against the best of them. */
    static List<RankedResult> of(List<Scored> found) {
        double best = found.stream().map(Scored::explain).filter(e -> e != null && e.lexical() != null)
                .mapToDouble(Explain::lexical).max().orElse(0);
        List<RankedResult> results = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            Scored s = found.get(i);
            results.add(new RankedResult(i + 1, MemoryView.listed(s.memory()), s.score(), parts(s.explain(), best)));
        }
        return results;
    }

    /** Whether the score came with its parts (every ranking but the seed's). */
    public boolean explained() {
        return !parts.isEmpty();
    }

    private static List<ScorePart> parts(Explain e, double bestLexical) {
        if (e == null) {
            return List.of();
        }
        return List.of(
                new ScorePart(PARTS.get(0), ranked(e.lexical(), e.lexicalRank()),
                        e.lexical() == null || bestLexical <= 0 ? 0 : e.lexical() / bestLexical),
                new ScorePart(PARTS.get(1), ranked(e.semantic(), e.semanticRank()),
                        e.semantic() == null ? 0 : e.semantic()),
                part(PARTS.get(2), e.match()), part(PARTS.get(3), e.context()), part(PARTS.get(4), e.fused()),
                part(PARTS.get(5), e.importance()), part(PARTS.get(6), e.confidence()),
                part(PARTS.get(7), e.recency()));
    }

    private static ScorePart part(String name, double value) {
        return new ScorePart(name, decimals(value), value);
    }

    private static String ranked(Double value, Integer rank) {
        return value == null ? "none" : decimals(value) + (rank == null ? "" : " (#" + rank + ")");
    }

    private static String decimals(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }
}
