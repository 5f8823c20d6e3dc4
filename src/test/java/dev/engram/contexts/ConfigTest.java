package dev.engram.contexts;

import dev.engram.contexts.tokens.TokenCounter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.engram.kernel.Invalid;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingSupplier;

/** Defaults and refusals of a context's configuration. */
class ConfigTest {

    private static void refused(String rule, String field, ThrowingSupplier<?> make) {
        Invalid invalid = assertThrows(Invalid.class, make::get);
        assertEquals(rule, invalid.rule());
        assertEquals(field, invalid.field());
    }

    @Test
    void zeroValuesTakeTheReferenceDefaults() {
        ContextConfig config = new ContextConfig(null, 0, null, null, null, null, false, null);
        assertEquals(new ContextConfig.Model(128000, 4096), config.model());
        assertEquals(5, config.safetyMarginPercent());
        assertEquals(new ContextConfig.Thresholds(85, 92, 98), config.thresholds());
        assertEquals(new ContextConfig.Thresholds(85, 50, 98), new ContextConfig.Thresholds(0, 50, 0));
        assertEquals("sliding_window", config.strategy().name());
        assertEquals(0, config.pruning().keepLastN());
        assertEquals(ContextConfig.HistoryMutation.OFF, config.historyMutation());
        assertEquals("simple", config.tokenCounter());
        assertEquals(new ContextConfig.Pruning(3, List.of(), "", 50), ContextConfig.defaults().pruning());
        assertEquals("[Tool output pruned — not available in context. Use search_facts for stored findings, or "
                + "re-read the file if needed. Do NOT fabricate content you cannot see.]",
                ContextConfig.Pruning.DEFAULT.placeholder());
        assertEquals("[P]", new ContextConfig.Pruning(1, null, "[P]", 0).placeholder());
    }

    @Test
    void negativeSizesAndUnknownNamesAreRefused() {
        refused("model-negative", "model.context_window", () -> new ContextConfig.Model(-1, 0));
        refused("model-negative", "model.output_limit", () -> new ContextConfig.Model(1000, -1));
        refused("safety-margin-range", "safety_margin_percent", () -> ContextConfig.defaults().withSafetyMargin(-1));
        refused("safety-margin-range", "safety_margin_percent", () -> ContextConfig.defaults().withSafetyMargin(101));
        refused("threshold-negative", "thresholds", () -> new ContextConfig.Thresholds(-5, 0, 0));
        refused("pruning-negative", "pruning.keep_last_n", () -> new ContextConfig.Pruning(-1, null, "", 0));
        refused("pruning-threshold", "pruning.threshold_percent",
                () -> new ContextConfig.Pruning(1, null, "", Double.NaN));
        refused("mutation-negative", "history_mutation.tool_result_eviction_step",
                () -> new ContextConfig.HistoryMutation(-3, false, false));
        refused("strategy-unknown", "strategy.name", () -> StrategySettings.named("nope"));
        refused("strategy-negative", "strategy.keep_last", () -> StrategySettings.slidingWindow(1, -1));
        refused("strategy-ratio", "strategy.middle",
                () -> new StrategySettings("hierarchical", 0, 0, 0, 0, 0.5, -0.1, 0, 0));
        refused("strategy-ratio", "strategy.distant",
                () -> new StrategySettings("hierarchical", 0, 0, 0, 0, Double.POSITIVE_INFINITY, 0, 0, 0));
        refused("input-tokens-negative", "input_tokens", () -> {
            new Context(ContextConfig.defaults(), TokenCounter.simple(), null).correctTokenCount(-1);
            return null;
        });
        refused("token-counter-unknown", "token_counter",
                () -> new ContextConfig(null, 0, null, null, null, null, false, "sentencepiece/llama"));
    }

    @Test
    void counterNamesAndTheBlankStrategyName() {
        assertEquals(1, TokenCounter.named("approximate").count("abcd"));
        assertEquals(0, TokenCounter.named("none").count("abcd"));
        assertEquals("sliding_window", StrategySettings.named("  ").name());
        assertEquals("hierarchical", StrategySettings.named(" hierarchical ").name());
    }

    @Test
    void effectiveMaxMayBeNonPositiveAndThenEverythingRejects() {
        ContextConfig full = ContextConfig.defaults().withModel(new ContextConfig.Model(4000, 4000));
        assertEquals(-200, full.effectiveMax());
        Context context = new Context(full, TokenCounter.simple(), null);
        assertEquals(new FillCheck(100, "reject", 0, -200, 0), context.checkFill());
        assertEquals(100.0, context.fillPercent());
        assertEquals(0, context.availableTokens());
    }

    @Test
    void aHugeWindowDoesNotOverflow() {
        ContextConfig huge = ContextConfig.defaults().withModel(new ContextConfig.Model(2_000_000_000, 4096));
        assertEquals(2_000_000_000 - 4096 - 100_000_000, huge.effectiveMax());
    }

    @Test
    void thresholdBoundariesBelongToTheHigherStatus() {
        ContextConfig.Thresholds t = new ContextConfig.Thresholds(30, 50, 70);
        assertEquals("ok", FillCheck.of(29, 100, t).status());
        assertEquals("compact", FillCheck.of(30, 100, t).status());
        assertEquals("warning", FillCheck.of(50, 100, t).status());
        assertEquals("emergency", FillCheck.of(70, 100, t).status());
        assertEquals("emergency", FillCheck.of(99, 100, t).status());
        assertEquals("reject", FillCheck.of(100, 100, t).status());
        assertEquals(new FillCheck(150, "reject", 150, 100, 0), FillCheck.of(150, 100, t));
    }
}
