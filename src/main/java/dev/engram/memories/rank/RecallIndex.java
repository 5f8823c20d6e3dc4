package dev.engram.memories.rank;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The memories of one store as ranking sees them, in memory: each memory's term counts and vector. A search scans the
 * memories its filters admit (a bank of 10,000 in a few milliseconds), so the statistics BM25 needs (how many memories,
 * their mean length, how many hold each term) are those of the banks searched. Safe for concurrent use; a search
 * sees every change made before it began.
 *
 * <p>Ranking: {@link Fusion} says how lexical and semantic ranks are fused and how importance, confidence and age
 * weigh on the result.
 */
public final class RecallIndex {

    /** BM25's term-frequency saturation and length normalisation. */
    static final double K1 = 1.2;
    static final double B = 0.75;
    /** A long query keeps this many of its terms: those the fewest memories hold. */
    public static final int MAX_QUERY_TERMS = 32;

    private final Map<String, Integer> dictionary = new HashMap<>();
    private final Map<String, Doc> docs = new HashMap<>();
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    /** Each bank's memories in the order they were made (creation time, then save order), rebuilt when changed. */
    private final Map<String, Neighbourhood> banks = new HashMap<>();
    private final java.util.Set<String> changedBanks = new java.util.HashSet<>();

    /** A bank's memories in order, and where each id is in it. */
    private record Neighbourhood(Doc[] inOrder, Map<String, Integer> at, Vectors vectors) {
    }

    /**
     * A bank's vectors in one array, in the bank's order, so a search reads them in one sweep: {@code dimensions}
     * floats at {@code position × dimensions}, for the positions whose memory has a vector of that length.
     */
    private record Vectors(int dimensions, float[] flat, boolean[] present) {

        static Vectors of(Doc[] inOrder) {
            int dimensions = 0;
            for (Doc d : inOrder) {
                if (d.vector() != null) {
                    dimensions = d.vector().length;
                    break;
                }
            }
            float[] flat = new float[inOrder.length * dimensions];
            boolean[] present = new boolean[inOrder.length];
            for (int i = 0; i < inOrder.length; i++) {
                float[] v = inOrder[i].vector();
                if (v != null && v.length == dimensions && dimensions > 0) {
                    System.arraycopy(v, 0, flat, i * dimensions, dimensions);
                    present[i] = true;
                }
            }
            return new Vectors(dimensions, flat, present);
        }
    }

    /** One memory: its sorted distinct term ids with their counts, its length in terms, its unit vector. */
    private record Doc(Indexed memory, int[] termIds, int[] counts, int length, float[] vector) {

        /** Each doc is itself only: maps of docs hash by identity, not by the whole memory. */
        @Override
        public boolean equals(Object o) {
            return this == o;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }
    }

    /** Adds {@code m}, or replaces the memory of its id. */
    public void put(Indexed m) {
        List<String> terms = Terms.ofDocument(m.text());
        lock.writeLock().lock();
        try {
            Map<Integer, Integer> counted = new HashMap<>();
            for (String t : terms) {
                counted.merge(dictionary.computeIfAbsent(t, x -> dictionary.size()), 1, Integer::sum);
            }
            int[] ids = counted.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
            int[] counts = new int[ids.length];
            for (int i = 0; i < ids.length; i++) {
                counts[i] = counted.get(ids[i]);
            }
            // The text is not kept: its counts are what ranking reads, and a store's texts would double the index.
            Indexed kept = new Indexed(m.id(), m.bank(), m.type(), m.archived(), m.stale(), m.importance(),
                    m.confidence(), m.createdAt(), m.order(), "", m.model() == null ? null : m.model().intern(),
                    m.vector());
            Doc old = docs.put(m.id(), new Doc(kept, ids, counts, terms.size(), m.vector()));
            if (old != null) {
                changedBanks.add(old.memory().bank());
            }
            changedBanks.add(m.bank());
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Removes the memory {@code id}; nothing when it is not there. */
    public void remove(String id) {
        lock.writeLock().lock();
        try {
            Doc old = docs.remove(id);
            if (old != null) {
                changedBanks.add(old.memory().bank());
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Removes every memory. */
    public void clear() {
        lock.writeLock().lock();
        try {
            docs.clear();
            dictionary.clear();
            banks.clear();
            changedBanks.clear();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** How many memories it holds. */
    public int size() {
        lock.readLock().lock();
        try {
            return docs.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The memories {@code q} finds, best first, at most its top k. */
    public List<Ranked> rank(RankQuery q) {
        lock.writeLock().lock();
        try {
            reorder();
            lock.readLock().lock();
        } finally {
            lock.writeLock().unlock();
        }
        try {
            return ranked(q);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Rebuilds the order of each bank changed since the last search. */
    private void reorder() {
        if (changedBanks.isEmpty()) {
            return;
        }
        Map<String, List<Doc>> changed = new HashMap<>();
        changedBanks.forEach(b -> changed.put(b, new ArrayList<>()));
        for (Doc d : docs.values()) {
            List<Doc> in = changed.get(d.memory().bank());
            if (in != null) {
                in.add(d);
            }
        }
        for (Map.Entry<String, List<Doc>> e : changed.entrySet()) {
            List<Doc> in = e.getValue();
            in.sort(Comparator.comparing((Doc d) -> d.memory().createdAt()).thenComparingLong(d -> d.memory().order())
                    .thenComparing(d -> d.memory().id()));
            Map<String, Integer> at = new HashMap<>();
            for (int i = 0; i < in.size(); i++) {
                at.put(in.get(i).memory().id(), i);
            }
            Doc[] ordered = in.toArray(Doc[]::new);
            banks.put(e.getKey(), new Neighbourhood(ordered, at, Vectors.of(ordered)));
        }
        changedBanks.clear();
    }

    private List<Ranked> ranked(RankQuery q) {
        double[][] swept = new double[1][];
        Doc[] admitted = admitted(q, swept);
        int n = admitted.length;
        if (n == 0) {
            return List.of();
        }
        long lengths = 0;
        int withVector = 0;
        for (Doc d : admitted) {
            lengths += d.length();
            if (usable(q, d)) {
                withVector++;
            }
        }
        Scorer scorer = new Scorer(q, admitted, lengths / (double) n);
        double[] bm25 = new double[n];
        double[] cosine = new double[n];
        for (int i = 0; i < n; i++) {
            bm25[i] = q.ranking() == Ranking.SEMANTIC ? Double.NaN : scorer.bm25(i, admitted[i]);
            cosine[i] = swept[0] != null ? swept[0][i] : scorer.cosine(admitted[i]);
        }
        Map<Doc, Fusion.Candidate> found = new java.util.IdentityHashMap<>();
        int[] lexical = top(bm25, Fusion.DEPTH);
        for (int r = 0; r < lexical.length; r++) {
            Doc d = admitted[lexical[r]];
            found.put(d, new Fusion.Candidate(d.memory(), bm25[lexical[r]], r + 1, boxed(cosine[lexical[r]]), null));
        }
        int[] semantic = top(cosine, Fusion.DEPTH);
        for (int r = 0; r < semantic.length; r++) {
            int i = semantic[r];
            Doc d = admitted[i];
            Fusion.Candidate c = found.get(d);
            found.put(d, new Fusion.Candidate(d.memory(), boxed(bm25[i]), c == null ? null : c.lexicalRank(),
                    cosine[i], r + 1));
        }
        String note = note(q, n, withVector);
        Map<Indexed, List<Fusion.Candidate>> near = new java.util.IdentityHashMap<>();
        return Fusion.fuse(q, List.copyOf(found.values()),
                m -> near.computeIfAbsent(m, x -> neighbours(q, x, scorer)), note);
    }

    /**
     * The memories the query's filters admit: those of its banks only, when it names banks, with their similarities
     * to the query swept from each bank's {@link Vectors} into {@code similarities} (NaN: none), when it has a vector.
     */
    private Doc[] admitted(RankQuery q, double[][] similarities) {
        List<Doc> admitted = new ArrayList<>();
        if (q.banks().isEmpty()) {
            for (Doc d : docs.values()) {
                if (admits(q, d.memory())) {
                    admitted.add(d);
                }
            }
            return admitted.toArray(Doc[]::new);
        }
        boolean sweep = q.vector() != null && q.ranking() != Ranking.LEXICAL;
        int most = 0;
        for (String bank : q.banks()) {
            Neighbourhood in = banks.get(bank);
            most += in == null ? 0 : in.inOrder().length;
        }
        double[] found = sweep ? new double[most] : null;
        for (String bank : q.banks()) {
            Neighbourhood in = banks.get(bank);
            if (in == null) {
                continue;
            }
            Doc[] ordered = in.inOrder();
            Vectors v = in.vectors();
            boolean flat = sweep && v.dimensions() == q.vector().length;
            for (int i = 0; i < ordered.length; i++) {
                Doc d = ordered[i];
                if (admits(q, d.memory())) {
                    if (sweep) {
                        found[admitted.size()] = flat && v.present()[i] && q.model().equals(d.memory().model())
                                ? dot(v.flat(), i * v.dimensions(), q.vector()) : Double.NaN;
                    }
                    admitted.add(d);
                }
            }
        }
        similarities[0] = found;
        return admitted.toArray(Doc[]::new);
    }

    /** A score that is not there ({@code NaN}, or no match) as null. */
    private static Double boxed(double score) {
        return Double.isNaN(score) || score <= 0 && !Double.isFinite(1 / score) ? null : score;
    }

    /**
     * The positions of the best {@code depth} scores, best first (ties by position); {@code NaN} and scores of 0
     * or less (no match) are left out of a BM25 list, {@code NaN} only of a similarity list.
     */
    private static int[] top(double[] scores, int depth) {
        java.util.PriorityQueue<Integer> kept = new java.util.PriorityQueue<>(depth + 1, (a, b) ->
                scores[a] != scores[b] ? Double.compare(scores[a], scores[b]) : Integer.compare(b, a));
        for (int i = 0; i < scores.length; i++) {
            if (Double.isNaN(scores[i])) {
                continue;
            }
            if (kept.size() < depth) {
                kept.add(i);
            } else if (scores[i] > scores[kept.peek()]) {
                kept.poll();
                kept.add(i);
            }
        }
        int[] best = new int[kept.size()];
        for (int i = best.length - 1; i >= 0; i--) {
            best[i] = kept.poll();
        }
        return best;
    }

    /** BM25 and similarity of one query over the admitted memories' statistics. */
    private final class Scorer {
        final RankQuery q;
        final int[] terms;
        final double[] idf;
        final double meanLength;

        /** Each admitted memory's count of each query term, {@code terms.length} per memory (null: none held). */
        final int[][] counts;

        Scorer(RankQuery q, Doc[] admitted, double meanLength) {
            this.q = q;
            this.meanLength = Math.max(1, meanLength);
            List<Integer> known = new ArrayList<>();
            if (q.ranking() != Ranking.SEMANTIC) {
                for (String t : q.terms()) {
                    Integer id = dictionary.get(t);
                    if (id != null) {
                        known.add(id);
                    }
                }
            }
            terms = known.stream().mapToInt(Integer::intValue).toArray();
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
            keepMostInformative(idf);
        }

        /** The BM25 score of the admitted memory {@code j}; NaN when it holds no query term. */
        double bm25(int j, Doc d) {
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
        double bm25(Doc d) {
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
        double cosine(Doc d) {
            return q.ranking() != Ranking.LEXICAL && usable(q, d) ? dot(d.vector(), q.vector()) : Double.NaN;
        }
    }

    private List<Fusion.Candidate> neighbours(RankQuery q, Indexed m, Scorer scorer) {
        Neighbourhood n = banks.get(m.bank());
        Integer at = n == null ? null : n.at().get(m.id());
        if (at == null) {
            return List.of();
        }
        List<Fusion.Candidate> found = new ArrayList<>(2);
        for (int i : new int[] {at - 1, at + 1}) {
            if (i >= 0 && i < n.inOrder().length && admits(q, n.inOrder()[i].memory())) {
                Doc d = n.inOrder()[i];
                found.add(new Fusion.Candidate(d.memory(), boxed(scorer.bm25(d)), null, boxed(scorer.cosine(d)),
                        null));
            }
        }
        return found;
    }

    private static String note(RankQuery q, int admitted, int withVector) {
        if (q.ranking() == Ranking.LEXICAL) {
            return "";
        }
        if (q.vector() == null) {
            return q.semanticNote().isEmpty() ? "the query has no vector: ranked lexically" : q.semanticNote();
        }
        return withVector == admitted ? "" : (admitted - withVector) + " of " + admitted
                + " memories are not embedded yet: they rank lexically only";
    }

    private static boolean usable(RankQuery q, Doc d) {
        return d.vector() != null && q.vector() != null && d.vector().length == q.vector().length
                && q.model().equals(d.memory().model());
    }

    private static boolean admits(RankQuery q, Indexed m) {
        return (q.includeArchived() || !m.archived()) && (q.includeStale() || !m.stale())
                && (q.type().isEmpty() || q.type().equals(m.type())) && (q.banks().isEmpty()
                        || q.banks().contains(m.bank()));
    }

    /** Zeroes all but the {@link #MAX_QUERY_TERMS} highest weights, so a long query's work stays bounded. */
    static void keepMostInformative(double[] idf) {
        if (idf.length <= MAX_QUERY_TERMS) {
            return;
        }
        double[] sorted = idf.clone();
        Arrays.sort(sorted);
        double floor = sorted[sorted.length - MAX_QUERY_TERMS];
        int ties = MAX_QUERY_TERMS;
        for (double w : idf) {
            if (w > floor) {
                ties--;
            }
        }
        for (int i = 0; i < idf.length; i++) {
            if (idf[i] < floor || (idf[i] == floor && ties-- <= 0)) {
                idf[i] = 0;
            }
        }
    }

    /** The dot product of {@code b} with the {@code b.length} floats of {@code all} from {@code from}. */
    static float dot(float[] all, int from, float[] b) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int i = 0;
        for (; i + 3 < b.length; i += 4) {
            s0 += all[from + i] * b[i];
            s1 += all[from + i + 1] * b[i + 1];
            s2 += all[from + i + 2] * b[i + 2];
            s3 += all[from + i + 3] * b[i + 3];
        }
        for (; i < b.length; i++) {
            s0 += all[from + i] * b[i];
        }
        return s0 + s1 + s2 + s3;
    }

    static float dot(float[] a, float[] b) {
        return dot(a, 0, b);
    }

    /** The decay factor's input, exposed to {@link Fusion}. */
    static double days(Indexed m, RankQuery q) {
        return Relevance.days(m.createdAt(), q.now());
    }
}
