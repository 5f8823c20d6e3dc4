package dev.engram.memories.rank;

import java.util.List;

/**
 * An embedding model: texts in, one unit vector of {@link #dimensions()} floats each, in order. Implementations may
 * call a provider over the network; a failure is an exception, never a wrong vector.
 */
public interface Embedder {

    /** The model's name as memories record it, for example {@code all-minilm-l6-v2-q}. */
    String model();

    /** The length of every vector it gives. */
    int dimensions();

    /** The vectors of {@code texts}, in order. */
    List<float[]> embed(List<String> texts);

    /** An embedder of nothing: searches rank lexically and say so. */
    Embedder NONE = new Embedder() {
        @Override
        public String model() {
            return "";
        }

        @Override
        public int dimensions() {
            return 0;
        }

        @Override
        public List<float[]> embed(List<String> texts) {
            throw new IllegalStateException("no embedding model is configured");
        }
    };

    /**
     * {@code v} scaled to unit length, or empty when it has the wrong length, a value that is not finite, or no
     * length at all: such a vector is refused, never stored.
     */
    static java.util.Optional<float[]> unit(float[] v, int dimensions) {
        if (v == null || v.length != dimensions || dimensions == 0) {
            return java.util.Optional.empty();
        }
        double sum = 0;
        for (float x : v) {
            if (!Float.isFinite(x)) {
                return java.util.Optional.empty();
            }
            sum += (double) x * x;
        }
        if (sum == 0 || !Double.isFinite(sum)) {
            return java.util.Optional.empty();
        }
        float scale = (float) (1 / Math.sqrt(sum));
        float[] u = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            u[i] = v[i] * scale;
        }
        return java.util.Optional.of(u);
    }
}
