package dev.engram.contexts.app;

import dev.engram.contexts.Context;
import dev.engram.contexts.FillCheck;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.messages.Prompt;
import dev.engram.contexts.StrategySettings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The contexts' metrics: {@code engram.context.compactions} (tags {@code strategy}, {@code summarized}) counted when a
 * compaction lands; {@code engram.context.tool_outputs.pruned} and {@code .evicted}, the live tool outputs each built
 * prompt showed as the placeholder or a cache reference; {@code engram.context.fill}, the fill percent at each fill
 * check and each prompt built.
 */
@ApplicationScoped
public class ContextMetrics {

    private final Map<String, Counter> compactions = new HashMap<>();
    private final Counter pruned;
    private final Counter evicted;
    private final DistributionSummary fill;

    ContextMetrics(MeterRegistry registry) {
        for (String strategy : StrategySettings.NAMES) {
            for (boolean summarized : new boolean[] {false, true}) {
                compactions.put(strategy + summarized, Counter.builder("engram.context.compactions")
                        .description("Context compactions that landed, by strategy and whether a model summarized")
                        .tag("strategy", strategy).tag("summarized", Boolean.toString(summarized))
                        .register(registry));
            }
        }
        this.pruned = Counter.builder("engram.context.tool_outputs.pruned")
                .description("Tool outputs that built prompts showed as the pruning placeholder").register(registry);
        this.evicted = Counter.builder("engram.context.tool_outputs.evicted")
                .description("Tool outputs that built prompts showed evicted (a cache reference, the checklist note)")
                .register(registry);
        this.fill = DistributionSummary.builder("engram.context.fill")
                .description("Contexts' fill, in percent of the effective maximum, at each fill check and prompt")
                .register(registry);
    }

    /** The prompt of {@code context}, counting what it pruned and evicted and recording the fill it was built at. */
    public List<Message> prompt(Context context) {
        fill.record(context.fillPercent());
        Prompt prompt = context.assemblePrompt();
        pruned.increment(prompt.prunedOutputs());
        evicted.increment(prompt.evictedOutputs());
        return prompt.messages();
    }

    /** Records {@code check}'s percent and answers it. */
    public FillCheck fill(FillCheck check) {
        fill.record(check.percent());
        return check;
    }

    /** Counts a compaction that landed, by its strategy and whether a model gave at least one of its summaries. */
    void compacted(String strategy, boolean summarized) {
        compactions.get(strategy + summarized).increment();
    }
}
