package dev.engram.recall.rank;

import dev.engram.recall.Relevance;
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
    private record Neighbourhood(Doc[] inOrder, Map<String, Integer> at) {
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
            Doc old = docs.put(m.id(), new Doc(m, ids, counts, terms.size(), m.vector()));
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

    /** How many of them have a vector of {@code model}. */
    public int embedded(String model) {
        lock.readLock().lock();
        try {
            return (int) docs.values().stream().filter(d -> d.vector() != null && model.equals(d.memory().model()))
                    .count();
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
            banks.put(e.getKey(), new Neighbourhood(in.toArray(Doc[]::new), at));
        }
        changedBanks.clear();
    }

    private List<Fusion.Candidate> neighbours(RankQuery q, Indexed m, Map<Doc, Double> bm25, Map<Doc, Double> cosine) {
        Neighbourhood n = banks.get(m.bank());
        Integer at = n == null ? null : n.at().get(m.id());
        if (at == null) {
            return List.of();
        }
        List<Fusion.Candidate> found = new ArrayList<>(2);
        for (int i : new int[] {at - 1, at + 1}) {
            if (i >= 0 && i < n.inOrder().length && admits(q, n.inOrder()[i].memory())) {
                Doc d = n.inOrder()[i];
                found.add(new Fusion.Candidate(d.memory(), bm25.get(d), null, cosine.get(d), null));
            }
        }
        return found;
    }

    private List<Ranked> ranked(RankQuery q) {
        List<Doc> admitted = new ArrayList<>();
        long lengths = 0;
        int withVector = 0;
        for (Doc d : docs.values()) {
            if (admits(q, d.memory())) {
                admitted.add(d);
                lengths += d.length();
                if (usable(q, d)) {
                    withVector++;
                }
            }
        }
        if (admitted.isEmpty()) {
            return List.of();
        }
        boolean lexical = q.ranking() != Ranking.SEMANTIC;
        boolean semantic = q.ranking() != Ranking.LEXICAL && q.vector() != null;
        Map<Doc, Double> bm25 = lexical ? bm25(q, admitted, lengths / (double) admitted.size()) : Map.of();
        Map<Doc, Double> cosine = semantic ? cosine(q, admitted) : Map.of();
        String note = note(q, admitted.size(), withVector);
        Map<Indexed, List<Fusion.Candidate>> near = new java.util.IdentityHashMap<>();
        return Fusion.fuse(q, List.copyOf(candidates(bm25, cosine).values()),
                m -> near.computeIfAbsent(m, x -> neighbours(q, x, bm25, cosine)), note);
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

    /** Each admitted memory holding a query term, with its BM25 score over the admitted memories. */
    private Map<Doc, Double> bm25(RankQuery q, List<Doc> admitted, double meanLength) {
        List<Integer> known = new ArrayList<>();
        for (String t : q.terms()) {
            Integer id = dictionary.get(t);
            if (id != null) {
                known.add(id);
            }
        }
        if (known.isEmpty()) {
            return Map.of();
        }
        int[] terms = known.stream().mapToInt(Integer::intValue).toArray();
        int[] df = new int[terms.length];
        List<Doc> hit = new ArrayList<>();
        List<int[]> counts = new ArrayList<>();
        for (Doc d : admitted) {
            int[] tf = null;
            for (int i = 0; i < terms.length; i++) {
                int at = Arrays.binarySearch(d.termIds(), terms[i]);
                if (at >= 0) {
                    if (tf == null) {
                        tf = new int[terms.length];
                    }
                    tf[i] = d.counts()[at];
                    df[i]++;
                }
            }
            if (tf != null) {
                hit.add(d);
                counts.add(tf);
            }
        }
        double n = admitted.size();
        double[] idf = new double[terms.length];
        for (int i = 0; i < terms.length; i++) {
            idf[i] = Bm25.idf(n, df[i]);
        }
        keepMostInformative(idf);
        Map<Doc, Double> scores = new HashMap<>();
        for (int j = 0; j < hit.size(); j++) {
            Doc d = hit.get(j);
            int[] tf = counts.get(j);
            double norm = Bm25.norm(d.length(), meanLength);
            double s = 0;
            for (int i = 0; i < terms.length; i++) {
                s += Bm25.term(idf[i], tf[i], norm);
            }
            if (s > 0) {
                scores.put(d, s);
            }
        }
        return scores;
    }

    /** Zeroes all but the {@link #MAX_QUERY_TERMS} highest weights, so a long query's work stays bounded. */
    static void keepMostInformative(double[] idf) {
        if (idf.length <= MAX_QUERY_TERMS) {
            return;
        }
        double[] sorted = idf.clone();
        Arrays.sort(sorted);
        double floor = sorted[sorted.length - MAX_QUERY_TERMS];
        int kept = 0;
        for (int i = 0; i < idf.length; i++) {
            if (idf[i] > floor || (idf[i] == floor && kept < MAX_QUERY_TERMS)) {
                kept++;
            } else {
                idf[i] = 0;
            }
        }
    }

    private static Map<Doc, Double> cosine(RankQuery q, List<Doc> admitted) {
        Map<Doc, Double> scores = new HashMap<>();
        float[] v = q.vector();
        for (Doc d : admitted) {
            if (usable(q, d)) {
                scores.put(d, (double) dot(d.vector(), v));
            }
        }
        return scores;
    }

    static float dot(float[] a, float[] b) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int i = 0;
        for (; i + 3 < a.length; i += 4) {
            s0 += a[i] * b[i];
            s1 += a[i + 1] * b[i + 1];
            s2 += a[i + 2] * b[i + 2];
            s3 += a[i + 3] * b[i + 3];
        }
        for (; i < a.length; i++) {
            s0 += a[i] * b[i];
        }
        return s0 + s1 + s2 + s3;
    }

    /** The best {@code depth} of {@code scores}, best first (ties by id). */
    private static List<Doc> top(Map<Doc, Double> scores, int depth) {
        Comparator<Map.Entry<Doc, Double>> better = Comparator.comparingDouble((Map.Entry<Doc, Double> e) ->
                e.getValue()).reversed().thenComparing(e -> e.getKey().memory().id());
        java.util.PriorityQueue<Map.Entry<Doc, Double>> kept = new java.util.PriorityQueue<>(better.reversed());
        for (Map.Entry<Doc, Double> e : scores.entrySet()) {
            kept.add(e);
            if (kept.size() > depth) {
                kept.poll();
            }
        }
        List<Map.Entry<Doc, Double>> best = new ArrayList<>(kept);
        best.sort(better);
        return best.stream().map(Map.Entry::getKey).toList();
    }

    private static Map<Doc, Fusion.Candidate> candidates(Map<Doc, Double> bm25, Map<Doc, Double> cosine) {
        Map<Doc, Fusion.Candidate> found = new HashMap<>();
        List<Doc> lexical = top(bm25, Fusion.DEPTH);
        for (int i = 0; i < lexical.size(); i++) {
            Doc d = lexical.get(i);
            found.put(d, new Fusion.Candidate(d.memory(), bm25.get(d), i + 1, cosine.get(d), null));
        }
        List<Doc> semantic = top(cosine, Fusion.DEPTH);
        for (int i = 0; i < semantic.size(); i++) {
            Doc d = semantic.get(i);
            Fusion.Candidate c = found.get(d);
            found.put(d, new Fusion.Candidate(d.memory(), c == null ? bm25.get(d) : c.lexical(),
                    c == null ? null : c.lexicalRank(), cosine.get(d), i + 1));
        }
        return found;
    }

    /** The decay factor's input, exposed to {@link Fusion}. */
    static double days(Indexed m, RankQuery q) {
        return Relevance.days(m.createdAt(), q.now());
    }
}
