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

    /** A search of banks of at least this many memories in all reads candidates from their postings and lists. */
    public static final int LARGE_BANKS = 20_000;

    private final int largeBanks;
    private final Map<String, Integer> dictionary = new HashMap<>();
    private final Map<String, IndexDoc> docs = new HashMap<>();
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    /** Each bank's memories in the order they were made (creation time, then save order), rebuilt when changed. */
    private final Map<String, Neighbourhood> banks = new HashMap<>();
    private final java.util.Set<String> changedBanks = new java.util.HashSet<>();

    /**
     * A bank's memories in order, where each id is in it, and either its vectors in one array (a small bank) or its
     * postings, vector lists and how many of its memories each model embedded (a large one).
     */
    private record Neighbourhood(IndexDoc[] inOrder, Map<String, Integer> at, BankVectors vectors,
            LargeSearch.Bank large) {
    }

    /** An index whose searches read candidates, not every memory, from banks of {@link #LARGE_BANKS} or more. */
    public RecallIndex() {
        this(LARGE_BANKS);
    }

    /** An index whose searches read candidates from banks of {@code largeBanks} memories or more in all. */
    RecallIndex(int largeBanks) {
        this.largeBanks = largeBanks;
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
            // A bank's name and a type are held once, not once a memory (100 MB of a million memories' index).
            Indexed kept = new Indexed(m.id(), once(m.bank()), once(m.type()), m.archived(), m.stale(),
                    m.importance(), m.confidence(), m.createdAt(), m.order(), "", once(m.model()), m.vector());
            IndexDoc old = docs.put(m.id(), new IndexDoc(kept, ids, counts, terms.size(), m.vector()));
            if (old != null) {
                changedBanks.add(old.memory().bank());
            }
            changedBanks.add(m.bank());
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The one copy of a name many memories share (null stays null). */
    private static String once(String name) {
        return name == null ? null : name.intern();
    }

    /** Removes the memory {@code id}; nothing when it is not there. */
    public void remove(String id) {
        lock.writeLock().lock();
        try {
            IndexDoc old = docs.remove(id);
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
        Map<String, List<IndexDoc>> changed = new HashMap<>();
        changedBanks.forEach(b -> changed.put(b, new ArrayList<>()));
        for (IndexDoc d : docs.values()) {
            List<IndexDoc> in = changed.get(d.memory().bank());
            if (in != null) {
                in.add(d);
            }
        }
        for (Map.Entry<String, List<IndexDoc>> e : changed.entrySet()) {
            List<IndexDoc> in = e.getValue();
            in.sort(Comparator.comparing((IndexDoc d) -> d.memory().createdAt())
                    .thenComparingLong(d -> d.memory().order())
                    .thenComparing(d -> d.memory().id()));
            Map<String, Integer> at = new HashMap<>();
            for (int i = 0; i < in.size(); i++) {
                at.put(in.get(i).memory().id(), i);
            }
            IndexDoc[] ordered = in.toArray(IndexDoc[]::new);
            Neighbourhood before = banks.get(e.getKey());
            banks.put(e.getKey(), ordered.length >= largeBanks
                    ? new Neighbourhood(ordered, at, BankVectors.of(new IndexDoc[0]), large(ordered,
                            before == null || before.large() == null ? null : before.large().lists()))
                    : new Neighbourhood(ordered, at, BankVectors.of(ordered), null));
        }
        changedBanks.clear();
    }

    /** A large bank's postings and vector lists, the lists placed by {@code previous}'s centroids when they fit. */
    private static LargeSearch.Bank large(IndexDoc[] ordered, VectorLists previous) {
        Map<String, Integer> embedded = new HashMap<>();
        int dimensions = 0;
        for (IndexDoc d : ordered) {
            if (d.vector() != null) {
                if (dimensions == 0) {
                    dimensions = d.vector().length;
                }
                if (d.memory().model() != null) {
                    embedded.merge(d.memory().model(), 1, Integer::sum);
                }
            }
        }
        return new LargeSearch.Bank(ordered, TermPostings.of(ordered), dimensions == 0 ? null
                : VectorLists.build(ordered, dimensions, previous), embedded);
    }

    private List<Ranked> ranked(RankQuery q) {
        List<LargeSearch.Bank> large = largeBanks(q);
        if (large != null) {
            List<Ranked> found = LargeSearch.rank(q, dictionary, large,
                    (m, scorer) -> neighbours(q, m, scorer));
            if (found != null) {
                return found;
            }
        }
        return rankedExactly(q);
    }

    /** The banks {@code q} names when they hold {@link #largeBanks} memories or more and each is large; else null. */
    private List<LargeSearch.Bank> largeBanks(RankQuery q) {
        if (q.banks().isEmpty()) {
            return null;
        }
        List<LargeSearch.Bank> named = new ArrayList<>();
        long size = 0;
        for (String bank : q.banks()) {
            Neighbourhood n = banks.get(bank);
            if (n == null) {
                continue;
            }
            if (n.large() == null) {
                return null;
            }
            named.add(n.large());
            size += n.inOrder().length;
        }
        return size >= largeBanks && !named.isEmpty() ? named : null;
    }

    private List<Ranked> rankedExactly(RankQuery q) {
        double[][] swept = new double[1][];
        IndexDoc[] admitted = admitted(q, swept);
        int n = admitted.length;
        if (n == 0) {
            return List.of();
        }
        long lengths = 0;
        int withVector = 0;
        for (IndexDoc d : admitted) {
            lengths += d.length();
            if (QueryScorer.usable(q, d)) {
                withVector++;
            }
        }
        QueryScorer scorer = new QueryScorer(dictionary, q, admitted, lengths / (double) n);
        double[] bm25 = new double[n];
        double[] cosine = new double[n];
        for (int i = 0; i < n; i++) {
            bm25[i] = q.ranking() == Ranking.SEMANTIC ? Double.NaN : scorer.bm25(i, admitted[i]);
            cosine[i] = swept[0] != null ? swept[0][i] : scorer.cosine(admitted[i]);
        }
        Map<IndexDoc, Fusion.Candidate> found = new java.util.IdentityHashMap<>();
        int[] lexical = top(bm25, Fusion.DEPTH);
        for (int r = 0; r < lexical.length; r++) {
            IndexDoc d = admitted[lexical[r]];
            found.put(d, new Fusion.Candidate(d.memory(), bm25[lexical[r]], r + 1, boxed(cosine[lexical[r]]), null));
        }
        int[] semantic = top(cosine, Fusion.DEPTH);
        for (int r = 0; r < semantic.length; r++) {
            int i = semantic[r];
            IndexDoc d = admitted[i];
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
     * to the query swept from each bank's {@link BankVectors} into {@code similarities} (NaN: none), when it has a
     * vector.
     */
    private IndexDoc[] admitted(RankQuery q, double[][] similarities) {
        List<IndexDoc> admitted = new ArrayList<>();
        if (q.banks().isEmpty()) {
            for (IndexDoc d : docs.values()) {
                if (admits(q, d.memory())) {
                    admitted.add(d);
                }
            }
            return admitted.toArray(IndexDoc[]::new);
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
            IndexDoc[] ordered = in.inOrder();
            BankVectors v = in.vectors();
            boolean flat = sweep && v.dimensions() == q.vector().length;
            for (int i = 0; i < ordered.length; i++) {
                IndexDoc d = ordered[i];
                if (admits(q, d.memory())) {
                    if (sweep) {
                        // a large bank keeps no array of its vectors: each is read where it is
                        found[admitted.size()] = !flat ? QueryScorer.cosine(q, d)
                                : v.present()[i] && q.model().equals(d.memory().model())
                                        ? BankVectors.dot(v.flat(), i * v.dimensions(), q.vector()) : Double.NaN;
                    }
                    admitted.add(d);
                }
            }
        }
        similarities[0] = found;
        return admitted.toArray(IndexDoc[]::new);
    }

    /** A score that is not there ({@code NaN}, or no match) as null. */
    static Double boxed(double score) {
        return Double.isNaN(score) || score <= 0 && !Double.isFinite(1 / score) ? null : score;
    }

    /**
     * The positions of the best {@code depth} scores, best first (ties by position); {@code NaN} and scores of 0
     * or less (no match) are left out of a BM25 list, {@code NaN} only of a similarity list.
     */
    static int[] top(double[] scores, int depth) {
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

    private List<Fusion.Candidate> neighbours(RankQuery q, Indexed m, QueryScorer scorer) {
        Neighbourhood n = banks.get(m.bank());
        Integer at = n == null ? null : n.at().get(m.id());
        if (at == null) {
            return List.of();
        }
        List<Fusion.Candidate> found = new ArrayList<>(2);
        for (int i : new int[] {at - 1, at + 1}) {
            if (i >= 0 && i < n.inOrder().length && admits(q, n.inOrder()[i].memory())) {
                IndexDoc d = n.inOrder()[i];
                found.add(new Fusion.Candidate(d.memory(), boxed(scorer.bm25(d)), null, boxed(scorer.cosine(d)),
                        null));
            }
        }
        return found;
    }

    static String note(RankQuery q, int admitted, int withVector) {
        if (q.ranking() == Ranking.LEXICAL) {
            return "";
        }
        if (q.vector() == null) {
            return q.semanticNote().isEmpty() ? "the query has no vector: ranked lexically" : q.semanticNote();
        }
        return withVector == admitted ? "" : (admitted - withVector) + " of " + admitted
                + " memories are not embedded yet: they rank lexically only";
    }

    static boolean admits(RankQuery q, Indexed m) {
        return admitsInBank(q, m) && (q.banks().isEmpty() || q.banks().contains(m.bank()));
    }

    /** {@link #admits} of a memory read from a bank the query names. */
    static boolean admitsInBank(RankQuery q, Indexed m) {
        return (q.includeArchived() || !m.archived()) && (q.includeStale() || !m.stale())
                && (q.type().isEmpty() || q.type().equals(m.type()));
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

    /** The decay factor's input, exposed to {@link Fusion}. */
    static double days(Indexed m, RankQuery q) {
        return Relevance.days(m.createdAt(), q.now());
    }
}
