package dev.engram.memories.rank;

/**
 * A bank's vectors in one array, in the bank's order, so a search reads them in one sweep: {@code dimensions}
 * floats at {@code position × dimensions}, for the positions whose memory has a vector of that length.
 */
record BankVectors(int dimensions, float[] flat, boolean[] present) {

    static BankVectors of(IndexDoc[] inOrder) {
        int dimensions = 0;
        for (IndexDoc d : inOrder) {
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
        return new BankVectors(dimensions, flat, present);
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
}
