package dev.engram.memories.rank;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * An inverted file over a large bank's vectors: each vector in the list of its nearest of {@code k} centroids
 * (spherical k-means on a sample of the bank), so that a search compares the query with the centroids and then only
 * with the vectors of the lists nearest to it. Approximate: a vector in a list not probed is not found by similarity
 * (its memory can still be found by its words, or lifted by a neighbour). Centroids are trained once and kept while
 * the bank is less than twice the size they were trained on; a rebuild then only places the vectors it has not
 * placed before, so a bank that changes is not trained again at each search.
 *
 * <p>Each list keeps its vectors a second time, in one array of 8-bit codes (a byte per float, scaled by the
 * vector's largest component), so that a probe reads a list in one sweep instead of a vector wherever its memory
 * holds it: two and a half times faster for a million memories, for 388 bytes a vector. The codes only choose; the
 * best of them are compared again in full before they are handed on, so a similarity handed on is exact.
 */
final class VectorLists {

    /** Vectors compared with each centroid when training: the sample is this many times the centroids. */
    private static final int SAMPLE_PER_CENTROID = 16;
    private static final int TRAINING_ROUNDS = 4;
    /** How many times the results wanted a probe keeps by their codes, to compare again in full. */
    static final int RECHECKED = 4;
    /** How many lists a search probes. */
    static final int PROBES = 8;

    final int dimensions;
    private final int k;
    private final float[] centroids;
    /**
     * Each list's positions in the bank's order, ascending; a vector compared again in full is read where its memory
     * keeps it.
     */
    private final int[][] lists;
    /** Each list's vectors as 8-bit codes, {@code dimensions} to a vector, in the list's order. */
    private final byte[][] codes;
    /** Each list's vectors' scales: a code times its vector's scale is the float it stands for. */
    private final float[][] scales;
    private final int trainedOn;
    private final Map<float[], Integer> placed;

    private VectorLists(int dimensions, float[] centroids, int trainedOn, int[][] lists, byte[][] codes,
            float[][] scales, Map<float[], Integer> placed) {
        this.dimensions = dimensions;
        this.k = centroids.length / dimensions;
        this.centroids = centroids;
        this.trainedOn = trainedOn;
        this.lists = lists;
        this.codes = codes;
        this.scales = scales;
        this.placed = placed;
    }

    /**
     * How many lists a bank of {@code size} vectors is split into: half the square root of its size (158 lists of
     * about 630 for 100,000), so that placing every vector, a comparison with each centroid, stays a few seconds.
     */
    static int listsFor(int size) {
        return Math.max(1, (int) Math.round(Math.sqrt(size) / 2));
    }

    /**
     * How many lists a search probes: eight, whatever the bank's size. With lists of about twice √n vectors, how much
     * of the exact top ten a probe finds follows the number of lists probed, not their share: eight of them found 85%
     * of it in banks of 11,000 and of 45,000 real text embeddings alike (docs/recall.md). A bank of a million then
     * compares 16,000 vectors a search, not the 62,000 of a sixteenth of its lists.
     */
    int probes() {
        return Math.min(k, PROBES);
    }

    /**
     * The lists of {@code inOrder}'s vectors of {@code dimensions} floats (the others are in no list), with the
     * centroids of {@code previous} when it is of the same length and trained on at least half as many.
     */
    static VectorLists build(IndexDoc[] inOrder, int dimensions, VectorLists previous) {
        int size = 0;
        for (IndexDoc d : inOrder) {
            if (d.vector() != null && d.vector().length == dimensions) {
                size++;
            }
        }
        boolean keep = previous != null && previous.dimensions == dimensions && size < 2L * previous.trainedOn;
        float[] centroids = keep ? previous.centroids : train(inOrder, dimensions, size);
        int trainedOn = keep ? previous.trainedOn : size;
        int k = centroids.length / dimensions;
        // Placing a vector compares it with every centroid: the bank's whole cost of a build (two minutes of one core
        // for a million vectors of 384 floats in 500 lists), so the vectors are placed on every core there is. Each
        // lands where it would one at a time: its nearest centroid, the first of equals.
        int[] listOf = new int[inOrder.length];
        IntStream.range(0, inOrder.length).parallel().forEach(i -> {
            float[] v = inOrder[i].vector();
            Integer known = v == null || !keep ? null : previous.placed.get(v);
            listOf[i] = v == null || v.length != dimensions ? -1
                    : known != null ? known : nearest(centroids, dimensions, v);
        });
        int[] counts = new int[k];
        Map<float[], Integer> placed = new IdentityHashMap<>(size * 2);
        for (int i = 0; i < inOrder.length; i++) {
            if (listOf[i] >= 0) {
                placed.put(inOrder[i].vector(), listOf[i]);
                counts[listOf[i]]++;
            }
        }
        int[][] lists = new int[k][];
        for (int c = 0; c < k; c++) {
            lists[c] = new int[counts[c]];
        }
        int[] filled = new int[k];
        for (int i = 0; i < inOrder.length; i++) {
            int c = listOf[i];
            if (c >= 0) {
                lists[c][filled[c]++] = i;
            }
        }
        byte[][] codes = new byte[k][];
        float[][] scales = new float[k][];
        IntStream.range(0, k).parallel().forEach(c -> {
            codes[c] = new byte[lists[c].length * dimensions];
            scales[c] = new float[lists[c].length];
            for (int j = 0; j < lists[c].length; j++) {
                scales[c][j] = encode(inOrder[lists[c][j]].vector(), codes[c], j * dimensions);
            }
        });
        return new VectorLists(dimensions, centroids, trainedOn, lists, codes, scales, placed);
    }

    /**
     * Writes {@code v}'s 8-bit codes into {@code codes} from {@code at}: each float over the vector's largest
     * magnitude, times 127, rounded. Returns the scale that takes a code back to its float (0 for a zero vector).
     */
    static float encode(float[] v, byte[] codes, int at) {
        float largest = 0;
        for (float x : v) {
            largest = Math.max(largest, Math.abs(x));
        }
        if (largest == 0) {
            return 0;
        }
        float toCode = 127 / largest;
        for (int j = 0; j < v.length; j++) {
            codes[at + j] = (byte) Math.round(v[j] * toCode);
        }
        return largest / 127;
    }

    /** The dot product of the {@code b.length} codes of {@code all} from {@code from} with the codes {@code b}. */
    static int dot(byte[] all, int from, byte[] b) {
        int s = 0;
        for (int i = 0; i < b.length; i++) {
            s += all[from + i] * b[i];
        }
        return s;
    }

    /**
     * Centroids for {@code size} vectors: a spread sample (every so many of the bank's vectors, so the same bank
     * trains the same way) as the first centroids, then a few rounds of assigning the sample and averaging.
     */
    private static float[] train(IndexDoc[] inOrder, int dimensions, int size) {
        int k = listsFor(size);
        int sampled = Math.min(size, k * SAMPLE_PER_CENTROID);
        float[][] sample = new float[sampled][];
        long step = Math.max(1, size / Math.max(1, sampled));
        int seen = 0;
        int taken = 0;
        for (IndexDoc d : inOrder) {
            float[] v = d.vector();
            if (v == null || v.length != dimensions) {
                continue;
            }
            if (seen++ % step == 0 && taken < sampled) {
                sample[taken++] = v;
            }
        }
        sampled = taken;
        k = Math.min(k, Math.max(1, sampled));
        float[] centroids = new float[k * dimensions];
        for (int c = 0; c < k; c++) {
            System.arraycopy(sample[(int) ((long) c * sampled / k)], 0, centroids, c * dimensions, dimensions);
        }
        int[] of = new int[sampled];
        for (int round = 0; round < TRAINING_ROUNDS; round++) {
            IntStream.range(0, sampled).parallel().forEach(s -> of[s] = nearest(centroids, dimensions, sample[s]));
            float[] sums = new float[k * dimensions];
            int[] counts = new int[k];
            for (int s = 0; s < sampled; s++) {
                counts[of[s]]++;
                int base = of[s] * dimensions;
                for (int j = 0; j < dimensions; j++) {
                    sums[base + j] += sample[s][j];
                }
            }
            for (int c = 0; c < k; c++) {
                if (counts[c] == 0) {
                    continue; // an empty list keeps its centroid
                }
                double norm = 0;
                for (int j = 0; j < dimensions; j++) {
                    norm += (double) sums[c * dimensions + j] * sums[c * dimensions + j];
                }
                if (norm > 0) {
                    float scale = (float) (1 / Math.sqrt(norm));
                    for (int j = 0; j < dimensions; j++) {
                        centroids[c * dimensions + j] = sums[c * dimensions + j] * scale;
                    }
                }
            }
        }
        return centroids;
    }

    private static int nearest(float[] centroids, int dimensions, float[] v) {
        int best = 0;
        float bestSimilarity = Float.NEGATIVE_INFINITY;
        for (int c = 0, base = 0; base < centroids.length; c++, base += dimensions) {
            float s = BankVectors.dot(centroids, base, v);
            if (s > bestSimilarity) {
                bestSimilarity = s;
                best = c;
            }
        }
        return best;
    }

    /** What a probe of a list hands on: a position in the bank's order and its vector's similarity to the query. */
    interface Found {
        void found(int position, double similarity);
    }

    /**
     * Hands to {@code found} the {@code depth} vectors most similar to {@code query} among those of the
     * {@code probes} lists nearest to it that {@code admitted} takes, with their similarity, in the order the lists
     * hold them, nearest list first; {@code inOrder} is the bank the lists were built of. The lists are swept by
     * their codes; {@link #RECHECKED} times {@code depth} of the best are compared again in full and the best of
     * those handed on, so a filter is asked only of a vector whose code could make the cut.
     */
    void probe(IndexDoc[] inOrder, float[] query, int probes, int depth, IntPredicate admitted, Found found) {
        double[] similarity = new double[k];
        for (int c = 0; c < k; c++) {
            similarity[c] = BankVectors.dot(centroids, c * dimensions, query);
        }
        int[] nearest = RecallIndex.top(similarity, Math.min(probes, k));
        byte[] q = new byte[dimensions];
        float queryScale = encode(query, q, 0);
        BestScores coded = new BestScores(depth * RECHECKED);
        int seen = 0;
        for (int c : nearest) {
            int[] list = lists[c];
            byte[] code = codes[c];
            float[] scale = scales[c];
            for (int j = 0, at = 0; j < list.length; j++, at += dimensions, seen++) {
                double s = (double) dot(code, at, q) * scale[j] * queryScale;
                if (coded.wants(s) && admitted.test(list[j])) {
                    coded.add(s, seen, list[j]);
                }
            }
        }
        BestScores exact = new BestScores(depth);
        for (int i = 0; i < coded.size; i++) {
            int p = coded.positions[i];
            exact.add(BankVectors.dot(inOrder[p].vector(), query), coded.seen[i], p);
        }
        exact.handOnInOrder(found);
    }
}
