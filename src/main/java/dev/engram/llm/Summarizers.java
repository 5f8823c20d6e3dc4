package dev.engram.llm;

import dev.engram.context.Summarizer;
import dev.engram.ops.EngramConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * The context summarizer this replica offers, built once from {@code engram.context.summarizer.*}: a chat model when
 * {@code engram.context.summarizer.model} is set, else none (the strategies' fallback texts).
 */
@ApplicationScoped
public class Summarizers {

    /** How an operator configures one; said by refusals that needed a summarizer. */
    public static final String HOW = "Set ENGRAM_CONTEXT_SUMMARIZER_MODEL (with ENGRAM_CONTEXT_SUMMARIZER_PROVIDER "
            + "openai, anthropic or ollama, ENGRAM_CONTEXT_SUMMARIZER_BASE_URL and ENGRAM_CONTEXT_SUMMARIZER_API_KEY "
            + "as the provider needs), or use the sliding_window strategy.";

    private final Optional<Summarizer> summarizer;

    @Inject
    public Summarizers(EngramConfig config) {
        EngramConfig.Llm s = config.context().summarizer();
        this.summarizer = s.model().map(model -> of(s, model));
    }

    /** The configured summarizer; empty when no model is configured. */
    public Optional<Summarizer> summarizer() {
        return summarizer;
    }

    /** A summarizer over the chat model {@code model} of {@code settings}. */
    static Summarizer of(EngramConfig.Llm settings, String model) {
        return new ChatSummarizer(ChatModels.of(settings, model, false, "engram.context.summarizer"),
                settings.provider() + " model " + model);
    }
}
