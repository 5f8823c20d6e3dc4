package dev.engram.memories;

import dev.engram.memories.rank.Ranking;
import java.util.List;

/**
 * What a recall search asks: the query, how many results ({@code topK}, 10 when not positive), the lowest score
 * kept, whether archived and stale memories count, filters on type and banks (none: every one), the ranking (null:
 * the bank's setting when the search names one bank that has one, else {@link Ranking#HYBRID}) and whether each
 * result says how its score was made.
 */
public record SearchOptions(String query, int topK, double minScore, boolean includeArchived, boolean includeStale,
        String type, List<String> banks, Ranking ranking, boolean explain) {

    /** How many results when none is asked for. */
    public static final int DEFAULT_TOP_K = 10;
    /** The most results a search may ask for. */
    public static final int MAX_TOP_K = 100;

    public SearchOptions {
        query = query == null ? "" : query;
        topK = topK <= 0 ? DEFAULT_TOP_K : topK;
        type = type == null ? "" : type;
        banks = banks == null ? List.of() : List.copyOf(banks.stream().distinct().toList());
    }

    /** A search ranked as its bank says (or hybrid), without explanations. */
    public SearchOptions(String query, int topK, double minScore, boolean includeArchived, boolean includeStale,
            String type, List<String> banks) {
        this(query, topK, minScore, includeArchived, includeStale, type, banks, null, false);
    }

    /** The same search ranked by {@code r}. */
    public SearchOptions ranked(Ranking r) {
        return new SearchOptions(query, topK, minScore, includeArchived, includeStale, type, banks, r, explain);
    }

    /** A search of {@code query} with every default. */
    public static SearchOptions of(String query) {
        return new SearchOptions(query, 0, 0, false, false, "", List.of());
    }

    /** Whether {@code m} passes the filters (not the query). */
    public boolean admits(Memory m) {
        return (includeArchived || !m.archived()) && (includeStale || !m.stale())
                && (type.isEmpty() || type.equals(m.type())) && (banks.isEmpty() || banks.contains(m.bank().bankId()));
    }
}
