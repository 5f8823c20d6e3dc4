package dev.engram.kernel;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A few values kept by key, for what is cheap to work out again but asked for on every request (a parsed setting,
 * what a replica last saw): at most {@code most} of them, all let go at once when a new one would pass the bound,
 * so it never grows with the data and needs no bookkeeping per read. Safe for concurrent use.
 */
public final class KeptFew<K, V> {

    private final int most;
    private final Map<K, V> kept = new ConcurrentHashMap<>();

    public KeptFew(int most) {
        if (most < 1) {
            throw new IllegalArgumentException("most must be at least 1: " + most);
        }
        this.most = most;
    }

    /** The value kept for {@code key}, or null. */
    public V get(K key) {
        return kept.get(key);
    }

    /** Keeps {@code value} for {@code key}, letting every other go first when the bound is reached. */
    public void put(K key, V value) {
        if (kept.size() >= most && !kept.containsKey(key)) {
            kept.clear();
        }
        kept.put(key, value);
    }

    public void remove(K key) {
        kept.remove(key);
    }

    /** How many are kept now. */
    public int size() {
        return kept.size();
    }
}
