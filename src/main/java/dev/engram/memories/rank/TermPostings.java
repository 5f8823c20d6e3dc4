package dev.engram.memories.rank;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A large bank's postings: for each term, the positions (in the bank's order) of the memories holding it, those the
 * term weighs most in first (BM25's saturated, length-normalised count), then the newest. A search reads only the
 * head of each query term's list ({@link #CANDIDATES_PER_TERM}), so its lexical work does not grow with the bank; the
 * statistics BM25 needs are the bank's own: its size, its mean length, and each list's length as the term's count.
 */
final class TermPostings {

    /** How many memories of each query term's list a search scores. */
    static final int CANDIDATES_PER_TERM = 1000;

    private static final int[] NONE = new int[0];

    private final Map<Integer, int[]> byTerm;
    final int size;
    final long totalLength;

    private TermPostings(Map<Integer, int[]> byTerm, int size, long totalLength) {
        this.byTerm = byTerm;
        this.size = size;
        this.totalLength = totalLength;
    }

    static TermPostings of(IndexDoc[] inOrder) {
        long total = 0;
        Map<Integer, Integer> counts = new HashMap<>();
        for (IndexDoc d : inOrder) {
            total += d.length();
            for (int t : d.termIds()) {
                counts.merge(t, 1, Integer::sum);
            }
        }
        double mean = inOrder.length == 0 ? 1 : total / (double) inOrder.length;
        Map<Integer, long[]> lists = new HashMap<>(counts.size() * 2);
        Map<Integer, Integer> filled = new HashMap<>(counts.size() * 2);
        counts.forEach((t, n) -> lists.put(t, new long[n]));
        for (int i = 0; i < inOrder.length; i++) {
            IndexDoc d = inOrder[i];
            double norm = Bm25.norm(d.length(), mean);
            for (int j = 0; j < d.termIds().length; j++) {
                int t = d.termIds()[j];
                int tf = d.counts()[j];
                // the weight's bits sort as the weight does (it is positive); the position breaks ties, newest first
                long weight = Float.floatToIntBits((float) (tf / (tf + norm)));
                int at = filled.merge(t, 1, Integer::sum) - 1;
                lists.get(t)[at] = -((weight << 32) | i);
            }
        }
        Map<Integer, int[]> byTerm = new HashMap<>(lists.size() * 2);
        lists.forEach((t, keys) -> {
            Arrays.sort(keys);
            int[] positions = new int[keys.length];
            for (int j = 0; j < keys.length; j++) {
                positions[j] = (int) (-keys[j] & 0xffffffffL);
            }
            byTerm.put(t, positions);
        });
        return new TermPostings(byTerm, inOrder.length, total);
    }

    /** How many of the bank's memories hold {@code term}. */
    int holding(int term) {
        return list(term).length;
    }

    /**
     * The positions of the memories holding {@code term}, those it weighs most in first; a search reads the first
     * {@link #CANDIDATES_PER_TERM}. Not to be changed.
     */
    int[] list(int term) {
        return byTerm.getOrDefault(term, NONE);
    }
}
