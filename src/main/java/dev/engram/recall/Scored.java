package dev.engram.recall;

import java.util.Objects;

/** A memory a search found, with its score (higher is better). */
public record Scored(Memory memory, double score) {

    public Scored {
        Objects.requireNonNull(memory, "memory");
    }
}
