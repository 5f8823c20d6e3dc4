package dev.engram.memories.rank;

import java.util.Random;

/** Random unit vectors for the rank tests: Gaussian components, scaled to length 1. */
final class UnitVectors {

    private UnitVectors() {
    }

    static float[] next(Random random, int dimensions) {
        float[] v = new float[dimensions];
        double norm = 0;
        for (int j = 0; j < dimensions; j++) {
            v[j] = (float) random.nextGaussian();
            norm += v[j] * v[j];
        }
        for (int j = 0; j < dimensions; j++) {
            v[j] /= (float) Math.sqrt(norm);
        }
        return v;
    }
}
