package dev.engram.llm;

/**
 * What the embedding model is, for health and diagnostics: its {@code provider} ({@code local}, {@code openai},
 * {@code ollama} or {@code none}), its {@code model} name ("" for none), its {@code dimensions} (0 while a remote
 * model's are not yet learned, and for none), whether it is {@code loaded} (can embed now without waiting: the local
 * model once loaded, a remote one always, none never), and the {@code problem} that keeps it from loading ("" when
 * there is none).
 */
public record EmbedderStatus(String provider, String model, int dimensions, boolean loaded, String problem) {
}
