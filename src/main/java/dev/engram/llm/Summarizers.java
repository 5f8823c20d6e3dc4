package dev.engram.llm;

import dev.engram.contexts.Summarizer;
import dev.engram.contexts.SummarizerChoice;
import dev.engram.kernel.SummaryFailed;
import dev.engram.ops.EngramConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The context summarizer this replica offers, built once from {@code engram.context.summarizer.*}: a chat model when
 * {@code engram.context.summarizer.model} is set, else none (the strategies' fallback texts). A context may choose
 * another model of the same provider, base URL and key ({@link #chosen}), never another host or key.
 */
@ApplicationScoped
public class Summarizers {

    /** How an operator configures one; said by refusals that needed a summarizer. */
    public static final String HOW = "Set ENGRAM_CONTEXT_SUMMARIZER_MODEL (with ENGRAM_CONTEXT_SUMMARIZER_PROVIDER "
            + "openai, anthropic or ollama, ENGRAM_CONTEXT_SUMMARIZER_BASE_URL and ENGRAM_CONTEXT_SUMMARIZER_API_KEY "
            + "as the provider needs), or use the sliding_window strategy.";

    /** How many models chosen by contexts are kept built; others are built for each compaction. */
    static final int KEPT_MODELS = 16;

    private final EngramConfig.Llm settings;
    private final Optional<Summarizer> summarizer;
    private final Map<String, Summarizer> chosen = new ConcurrentHashMap<>();

    @Inject
    public Summarizers(EngramConfig config) {
        this.settings = config.context().summarizer();
        this.summarizer = settings.model().map(model -> of(settings, model));
    }

    /** The configured summarizer; empty when no model is configured. */
    public Optional<Summarizer> summarizer() {
        return summarizer;
    }

    /**
     * The summarizer {@code choice} names: the configured one (empty without one) for {@code server}, empty for
     * {@code none}, and for {@code model} that model on the configured provider, base URL and key. Choosing a model
     * when the server configures none throws {@link SummaryFailed} (no cause: not configured).
     */
    public Optional<Summarizer> chosen(SummarizerChoice choice) {
        switch (choice.kind()) {
            case "none":
                return Optional.empty();
            case "model":
                if (summarizer.isEmpty()) {
                    throw new SummaryFailed("The context's strategy names the summarizer model \"" + choice.model()
                            + "\", but this server configures no summarizer, whose provider, base URL and key it "
                            + "would use. " + HOW, null);
                }
                if (settings.model().orElseThrow().equals(choice.model())) {
                    return summarizer;
                }
                Summarizer kept = chosen.get(choice.model());
                if (kept != null) {
                    return Optional.of(kept);
                }
                Summarizer built = of(settings, choice.model());
                if (chosen.size() < KEPT_MODELS) {
                    chosen.putIfAbsent(choice.model(), built);
                }
                return Optional.of(built);
            default:
                return summarizer;
        }
    }

    /** The name of the model {@code choice} asks, or "" when it asks none. */
    public String modelName(SummarizerChoice choice) {
        return switch (choice.kind()) {
            case "none" -> "";
            case "model" -> choice.model();
            default -> settings.model().orElse("");
        };
    }

    /** A summarizer over the chat model {@code model} of {@code settings}. */
    static Summarizer of(EngramConfig.Llm settings, String model) {
        return new ChatSummarizer(ChatModels.of(settings, model, false, "engram.context.summarizer"),
                settings.provider() + " model " + model);
    }
}
