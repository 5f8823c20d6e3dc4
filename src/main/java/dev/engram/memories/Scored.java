package dev.engram.memories;

import dev.engram.memories.rank.Explain;
import java.util.Objects;

/** A memory a search found, with its score (higher is better) and, when asked, how the score was made. */
public record Scored(Memory memory, double score, Explain explain) {

    public Scored {
        Objects.requireNonNull(memory, "memory");
    }

    /** A result without an explanation. */
    public Scored(Memory memory, double score) {
        this(memory, score, null);
    }
}
