package dev.engram.memories.rank;

/**
 * One memory in a {@link RecallIndex}: its sorted distinct term ids with their counts, its length in terms, its unit
 * vector.
 */
record IndexDoc(Indexed memory, int[] termIds, int[] counts, int length, float[] vector) {

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
