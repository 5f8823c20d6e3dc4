package dev.engram.memories.rank;

/** A memory a ranked search found: its id, its score (higher is better, at most 1) and how the score was made. */
public record Ranked(String id, double score, Explain explain) {
}
