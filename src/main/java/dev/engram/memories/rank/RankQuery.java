package dev.engram.memories.rank;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * One ranked search of a {@link RecallIndex}: the ranking, the query's terms, its vector (null when there is none,
 * {@code semanticNote} then says why), the model vectors must come from to count, the filters (banks: none means
 * every bank), how many results, the lowest score kept, and the time recency is measured at.
 */
public record RankQuery(Ranking ranking, List<String> terms, float[] vector, String model, String semanticNote,
        boolean includeArchived, boolean includeStale, String type, Set<String> banks, int topK, double minScore,
        Instant now) {

    public RankQuery {
        terms = List.copyOf(terms);
        banks = Set.copyOf(banks);
        type = type == null ? "" : type;
        semanticNote = semanticNote == null ? "" : semanticNote;
        model = model == null ? "" : model.intern();
    }
}
