package dev.engram.contexts.app;

import dev.engram.rest.IdempotencyKeys;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.engram.contexts.Compaction;
import dev.engram.contexts.CompactionResult;
import dev.engram.contexts.CompactionStrategy;
import dev.engram.contexts.Context;
import dev.engram.kernel.ContextChanged;
import dev.engram.contexts.StrategySettings;
import dev.engram.contexts.Summarizer;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.llm.Summarizations;
import dev.engram.llm.Summarizers;
import dev.engram.kernel.NotFound;
import dev.engram.contexts.ContextStore;
import dev.engram.contexts.ContextStore.Edited;
import dev.engram.contexts.ContextStore.Held;
import dev.engram.contexts.ContextWrite;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Compacting a stored context ({@code POST .../contexts/{id}/compact}). Without a model to ask (the sliding window, a
 * summarizer of {@code none}, or none configured: the fallback texts) the compaction is computed and saved in one
 * transaction. With one, no lock and no connection is held while the model answers: the context is read, a copy of it
 * is compacted, then the result lands under the store's lock only if the context is still what was compacted, or that
 * context with steps appended since (they stay live after the prefix); otherwise {@link ContextChanged} (409), with
 * nothing written. At most {@code engram.context.summarizer.concurrency} such compactions run on a replica at once.
 * Under an {@code Idempotency-Key} the key is looked up and recorded where the compaction lands, in its transaction:
 * a retry that arrives while the first still waits for its model asks the model too, but lands nothing, and is
 * answered with the first answer once that has landed; a retry after a 409 is a new attempt.
 */
@ApplicationScoped
public class ContextCompactions {

    /**
     * What a compaction answers: whether it compacted (not without steps), the fill before and after, whether a
     * model summarized every block the strategy summarized ({@code summarized}: false for the sliding window, and
     * when any block holds a fallback text), and, when a summarizing strategy fell back to the reference's texts
     * (its model failed on a block, or the server has none), why ({@code summary_error}, else absent). A
     * compaction that fell back has still compacted: its prefix holds the fallback texts in those blocks' place.
     */
    public record Compacted(boolean compacted, double beforePercent, double afterPercent, boolean summarized,
            @JsonInclude(JsonInclude.Include.NON_NULL) String summaryError) {

        /** A compaction that asked no model. */
        public Compacted(boolean compacted, double beforePercent, double afterPercent) {
            this(compacted, beforePercent, afterPercent, false, null);
        }
    }

    /** The reference's fallback texts, which a summarizing strategy without a model puts in a block's place. */
    private static final java.util.regex.Pattern FALLBACK = java.util.regex.Pattern.compile(
            "\\[\\.\\.\\. \\d+ steps summarized \\.\\.\\.\\]|\\[(distant|middle) zone: \\d+ steps summarized\\]");

    /** What {@code summary_error} says when a summarizing strategy asked the server's summarizer and there is none. */
    static final String NO_SUMMARIZER = "no summarizer is configured on this server "
            + "(ENGRAM_CONTEXT_SUMMARIZER_MODEL); the summarized steps hold the reference's fallback texts";

    @Inject
    ContextStore contexts;

    @Inject
    Summarizers summarizers;

    @Inject
    Summarizations summarizations;

    @Inject
    ContextMetrics metrics;

    @Inject
    IdempotencyKeys keys;

    /**
     * Compacts context {@code id} of {@code store} with its strategy and the summarizer the strategy chooses; each
     * context it opens is first given to {@code show} (which shows it its memory block, so the fill counts it); at
     * most once under the Idempotency-Key {@code key} (null: none) of the request to {@code path}: a retry is
     * {@link ContextWrite.Replayed}.
     */
    public ContextWrite<Compacted> compact(String store, String id, Consumer<Context> show, String key, String path) {
        Optional<ContextStore.Once<Landed>> once = keys.once(key, "POST", path, null, landed -> 200, Landed::answer);
        Held seen = contexts.get(store, id);
        Optional<Summarizer> model = model(seen.config().strategy());
        if (model.isEmpty()) {
            return counted(contexts.change(store, id, once, (current, cache) -> {
                Held now = current.orElseThrow(() -> NotFound.context(id));
                if (model(now.config().strategy()).isPresent()) {
                    throw new ContextChanged("it was reconfigured");
                }
                Context c = open(now, null, show);
                return land(c, c.prepareCompaction(), new Asked("", 0, 0, ""));
            }));
        }
        if (seen.state().steps().isEmpty() && once.isEmpty()) {
            double fill = open(seen, null, show).checkFill().percent();
            return new ContextWrite.Landed<>(new Compacted(false, fill, fill));
        }
        String name = summarizers.modelName(seen.config().strategy().summarizer());
        try (Summarizations.Run run = summarizations.start(model.get())) {
            Optional<Compaction> prepared = open(seen, run, show).prepareCompaction();
            Asked asked = new Asked(name, run.answered(), run.failed(), run.firstFailure());
            return counted(contexts.change(store, id, once, (current, cache) ->
                    land(open(current.orElseThrow(() -> NotFound.context(id)), null, show), prepared, asked)));
        }
    }

    /** The model a strategy asks; empty when it asks none (the sliding window, or no summarizer). */
    private Optional<Summarizer> model(StrategySettings strategy) {
        return strategy.summarizes() ? summarizers.chosen(strategy.summarizer()) : Optional.empty();
    }

    /**
     * Which model a compaction asked ("" for none), how many summaries it gave, how many blocks it failed on and
     * what the first failure said ("" for none).
     */
    private record Asked(String model, int answered, int failed, String failure) {

        /** Why blocks of {@code prefix} hold fallback texts; null when none does (or none was to be summarized). */
        String error(StrategySettings strategy, java.util.List<dev.engram.contexts.messages.Message> prefix) {
            if (failed > 0) {
                return "the summarizer failed on " + failed + " of " + (answered + failed) + " blocks, which hold "
                        + "fallback texts: " + failure;
            }
            boolean noModel = model.isEmpty() && strategy.summarizes()
                    && strategy.summarizer().kind().equals("server");
            boolean fellBack = prefix.stream().anyMatch(m -> m.role().equals("system")
                    && FALLBACK.matcher(m.content()).matches());
            return noModel && fellBack ? NO_SUMMARIZER : null;
        }
    }

    /** A compaction's answer, with its strategy and whether a model summarized, to count once it committed. */
    private record Landed(Compacted answer, String strategy, boolean summarized) {
    }

    private ContextWrite<Compacted> counted(ContextWrite<Landed> write) {
        return write.fold(landed -> {
            if (landed.answer().compacted()) {
                metrics.compacted(landed.strategy(), landed.summarized());
            }
            return new ContextWrite.Landed<>(landed.answer());
        }, ContextWrite.Replayed::new);
    }

    /** Lands {@code prepared} on {@code c} with its journal record; nothing changes when there was nothing to do. */
    private Edited<Landed> land(Context c, Optional<Compaction> prepared, Asked asked) {
        if (prepared.isEmpty()) {
            double fill = c.checkFill().percent();
            return Edited.unchanged(new Landed(new Compacted(false, fill, fill), "", false));
        }
        CompactionResult r = c.land(prepared.get());
        String strategy = c.config().strategy().name();
        boolean summarized = asked.answered() > 0;
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("before_percent", r.beforePercent());
        record.put("after_percent", r.afterPercent());
        record.put("compacted_through_index", c.compactedThroughIndex());
        record.put("strategy", strategy);
        record.put("summarized", summarized);
        if (!asked.model().isEmpty()) {
            record.put("model", asked.model());
            record.put("summary_failures", asked.failed());
        }
        String error = asked.error(c.config().strategy(), prepared.get().prefix());
        if (error != null) {
            record.put("summary_error", error);
        }
        record.put("replaced_from", prepared.get().replaced().from());
        record.put("replaced_to", prepared.get().replaced().to());
        // A model's summary may hold NUL, which the context keeps but a journal record cannot.
        record.put("summaries", prepared.get().summaries().stream().map(t -> t.replace('\0', '\uFFFD')).toList());
        boolean every = summarized && asked.failed() == 0;
        return Edited.of(c, "context.compacted", record,
                new Landed(new Compacted(true, r.beforePercent(), r.afterPercent(), every, error), strategy,
                        summarized));
    }

    /** The context {@code held} describes, its strategy asking {@code summarizer} (null: the fallback texts). */
    private static Context open(Held held, Summarizer summarizer, Consumer<Context> show) {
        TokenCounter counter = TokenCounter.named(held.config().tokenCounter());
        Context c = Context.restore(held.config(), counter,
                CompactionStrategy.of(held.config().strategy(), summarizer, counter), held.state());
        show.accept(c);
        return c;
    }
}
