package dev.engram.memories;

/**
 * How far a store's memories are embedded: how many it holds, how many have a vector of the current {@code model}
 * ({@code dimensions} long), how many wait in the queue, and the lag from a save to its vector over the last ten
 * minutes' embeddings (p50, p99 and the longest, in milliseconds; null when none was embedded then).
 */
public record EmbeddingStatus(String model, int dimensions, long memories, long embedded, long pending,
        Double lagP50Ms, Double lagP99Ms, Double lagMaxMs) {
}
