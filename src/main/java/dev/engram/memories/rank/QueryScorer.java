package dev.engram.memories.rank;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** BM25 and similarity of one query over the admitted memories' statistics. */
final class QueryScorer {

    final RankQuery q;
    final int[] terms;
    final double[] idf;
    final double meanLength;

    /** Each admitted memory's count of each query term, {@code terms.length} per memory (null: none held). */
    final int[][] counts;

    /** A scorer of statistics found elsewhere: the query's known {@code terms}, their weights, the mean length. */
    QueryScorer(RankQuery q, int[] terms, double[] idf, double meanLength) {
        this.q = q;
        this.terms = terms;
        this.idf = idf;
        this.meanLength = Math.max(1, meanLength);
        this.counts = new int[0][];
    }

    /** The query's terms the dictionary knows, none for a semantic ranking. */
    static int[] known(Map<String, Integer> dictionary, RankQuery q) {
        List<Integer> known = new ArrayList<>();
        if (q.ranking() != Ranking.SEMANTIC) {
            for (String t : q.terms()) {
                Integer id = dictionary.get(t);
                if (id != null) {
                    known.add(id);
                }
            }
        }
        return known.stream().mapToInt(Integer::intValue).toArray();
    }

    QueryScorer(Map<String, Integer> dictionary, RankQuery q, IndexDoc[] admitted, double meanLength) {
        this.q = q;
        this.meanLength = Math.max(1, meanLength);
        terms = known(dictionary, q);
        int[] df = new int[terms.length];
        counts = new int[admitted.length][];
        for (int j = 0; j < admitted.length && terms.length > 0; j++) {
            int[] ids = admitted[j].termIds();
            int[] tf = null;
            for (int i = 0; i < terms.length; i++) {
                int at = Arrays.binarySearch(ids, terms[i]);
                if (at >= 0) {
                    if (tf == null) {
                        tf = new int[terms.length];
                    }
                    tf[i] = admitted[j].counts()[at];
                    df[i]++;
                }
            }
            counts[j] = tf;
        }
        double n = admitted.length;
        idf = new double[terms.length];
        for (int i = 0; i < terms.length; i++) {
            idf[i] = Bm25.idf(n, df[i]);
        }
        RecallIndex.keepMostInformative(idf);
    }

    /** The BM25 score of the admitted memory {@code j}; NaN when it holds no query term. */
    double bm25(int j, IndexDoc d) {
        int[] tf = counts[j];
        if (tf == null) {
            return Double.NaN;
        }
        double norm = Bm25.norm(d.length(), meanLength);
        double s = 0;
        for (int i = 0; i < terms.length; i++) {
            s += Bm25.term(idf[i], tf[i], norm);
        }
        return s > 0 ? s : Double.NaN;
    }

    /** Its BM25 score, for a memory that may not be among the admitted; NaN when it holds no query term. */
    double bm25(IndexDoc d) {
        double norm = Bm25.norm(d.length(), meanLength);
        double s = 0;
        boolean any = false;
        for (int i = 0; i < terms.length; i++) {
            if (idf[i] > 0) {
                int at = Arrays.binarySearch(d.termIds(), terms[i]);
                if (at >= 0) {
                    s += Bm25.term(idf[i], d.counts()[at], norm);
                    any = true;
                }
            }
        }
        return any && s > 0 ? s : Double.NaN;
    }

    /** Its cosine similarity with the query; NaN when either has no usable vector. */
    double cosine(IndexDoc d) {
        return cosine(q, d);
    }

    /** The cosine similarity of {@code d} with {@code q}; NaN when either has no usable vector. */
    static double cosine(RankQuery q, IndexDoc d) {
        return q.ranking() != Ranking.LEXICAL && usable(q, d) ? BankVectors.dot(d.vector(), q.vector())
                : Double.NaN;
    }

    /** Whether the memory's vector and the query's are of one model and length. */
    static boolean usable(RankQuery q, IndexDoc d) {
        return d.vector() != null && q.vector() != null && d.vector().length == q.vector().length
                && q.model().equals(d.memory().model());
    }
}
