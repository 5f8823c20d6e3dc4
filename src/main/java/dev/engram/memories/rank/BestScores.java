package dev.engram.memories.rank;

/**
 * The best {@code most} of the scores it is given, each with the order it was seen in and a position, ties to the
 * one seen first: a heap in three arrays, worst on top, so that keeping the best of a million scores allocates
 * nothing per score.
 */
final class BestScores {
    final double[] scores;
    final int[] seen;
    final int[] positions;
    int size;

    BestScores(int most) {
        scores = new double[most];
        seen = new int[most];
        positions = new int[most];
    }

    /** Whether {@code score} could be kept: false when it is no better than the worst of a full set. */
    boolean wants(double score) {
        return size < scores.length || size > 0 && score > scores[0];
    }

    /** Keeps the score, seen {@code order}-th, of {@code position}, when it is among the best so far. */
    void add(double score, int order, int position) {
        if (scores.length == 0) {
            return;
        }
        if (size < scores.length) {
            int i = size++;
            set(i, score, order, position);
            up(i);
        } else if (worse(scores[0], seen[0], score, order)) {
            set(0, score, order, position);
            down(0);
        }
    }

    /** Hands its entries on in the order they were seen. */
    void handOnInOrder(VectorLists.Found found) {
        Integer[] byOrder = new Integer[size];
        for (int i = 0; i < size; i++) {
            byOrder[i] = i;
        }
        java.util.Arrays.sort(byOrder, (a, b) -> Integer.compare(seen[a], seen[b]));
        for (int i : byOrder) {
            found.found(positions[i], scores[i]);
        }
    }

    /** Whether the entry (score a, seen at i) ranks below (score b, seen at j). */
    private static boolean worse(double a, int i, double b, int j) {
        return a != b ? a < b : i > j;
    }

    private void set(int i, double score, int order, int position) {
        scores[i] = score;
        seen[i] = order;
        positions[i] = position;
    }

    private void swap(int i, int j) {
        double s = scores[i];
        int o = seen[i];
        int p = positions[i];
        set(i, scores[j], seen[j], positions[j]);
        set(j, s, o, p);
    }

    private void up(int i) {
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (!worse(scores[i], seen[i], scores[parent], seen[parent])) {
                return;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void down(int i) {
        while (true) {
            int worst = i;
            for (int child = 2 * i + 1; child <= 2 * i + 2 && child < size; child++) {
                if (worse(scores[child], seen[child], scores[worst], seen[worst])) {
                    worst = child;
                }
            }
            if (worst == i) {
                return;
            }
            swap(i, worst);
            i = worst;
        }
    }
}
