package dev.engram.memories.rank;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * BM25 of a few texts against one query, by the terms ({@link Terms}) and the formula {@link RecallIndex} ranks
 * memories with: for texts that are in no index, such as the entries a word search matched. The statistics (how many
 * texts, their mean length, how many hold each term) are those of the texts added. A text is not kept, only its
 * length and its counts of the query's terms, so texts can be added as they are read. Not safe for concurrent use.
 */
public final class Bm25 {

    private final List<String> terms;
    private final boolean scores;
    private final Map<String, Integer> at = new HashMap<>();
    private final int[] holding;
    private final List<int[]> counts = new ArrayList<>();
    private int[] lengths = new int[16];
    private long totalLength;

    /** A ranking of texts against {@code query}'s terms ({@link Terms#ofQuery}). */
    public Bm25(String query) {
        this.terms = Terms.ofQuery(query);
        for (int i = 0; i < terms.size(); i++) {
            at.put(terms.get(i), i);
        }
        this.holding = new int[terms.size()];
        this.scores = !Terms.ofDocument(query).isEmpty();
    }

    /**
     * Whether the query has a term a text can hold; without one (a query of stop words only, which texts leave out,
     * or of no word at all) every text scores 0.
     */
    public boolean hasTerms() {
        return scores;
    }

    /** Counts one more text, the next index. */
    public void add(String text) {
        int[] tf = new int[terms.size()];
        int length = 0;
        for (String t : Terms.ofDocument(text)) {
            length++;
            Integer i = at.get(t);
            if (i != null) {
                tf[i]++;
            }
        }
        for (int i = 0; i < tf.length; i++) {
            if (tf[i] > 0) {
                holding[i]++;
            }
        }
        if (counts.size() == lengths.length) {
            lengths = Arrays.copyOf(lengths, lengths.length * 2);
        }
        lengths[counts.size()] = length;
        counts.add(tf);
        totalLength += length;
    }

    /** How many texts were added. */
    public int size() {
        return counts.size();
    }

    /** The score of each text added, in the order added; 0 for a text holding none of the query's terms. */
    public double[] scores() {
        int n = counts.size();
        double mean = n == 0 ? 0 : totalLength / (double) n;
        double[] idf = new double[terms.size()];
        for (int i = 0; i < idf.length; i++) {
            idf[i] = idf(n, holding[i]);
        }
        RecallIndex.keepMostInformative(idf);
        double[] scores = new double[n];
        for (int j = 0; j < n; j++) {
            double norm = norm(lengths[j], mean);
            int[] tf = counts.get(j);
            double s = 0;
            for (int i = 0; i < tf.length; i++) {
                s += term(idf[i], tf[i], norm);
            }
            scores[j] = s;
        }
        return scores;
    }

    /** The indexes of the texts added, best score first; equal scores in the order the texts were added. */
    public int[] best() {
        double[] scores = scores();
        return java.util.stream.IntStream.range(0, scores.length).boxed()
                .sorted((a, b) -> Double.compare(scores[b], scores[a]))
                .mapToInt(Integer::intValue).toArray();
    }

    /** A term's weight among {@code n} texts when {@code holding} of them hold it; 0 when none does. */
    static double idf(double n, int holding) {
        return holding == 0 ? 0 : Math.log(1 + (n - holding + 0.5) / (holding + 0.5));
    }

    /** The length normalisation of a text {@code length} terms long, where the mean is {@code meanLength}. */
    static double norm(int length, double meanLength) {
        return RecallIndex.K1 * (1 - RecallIndex.B + RecallIndex.B * length / Math.max(1, meanLength));
    }

    /** What a term of weight {@code idf} that occurs {@code tf} times adds to a text's score. */
    static double term(double idf, int tf, double norm) {
        return tf > 0 ? idf * tf * (RecallIndex.K1 + 1) / (tf + norm) : 0;
    }
}
