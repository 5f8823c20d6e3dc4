package dev.engram.memories.rank;

import java.time.Instant;

/**
 * What ranking needs of one memory: where it is and what it is (for the search's filters), the factors, the text
 * its terms come from (content, tags and keywords), and its vector with the model that made it (null: not embedded).
 * {@code order} is the order memories were first saved in, which breaks ties of {@code createdAt} between neighbours.
 */
public record Indexed(String id, String bank, String type, boolean archived, boolean stale, double importance,
        double confidence, Instant createdAt, long order, String text, String model, float[] vector) {
}
