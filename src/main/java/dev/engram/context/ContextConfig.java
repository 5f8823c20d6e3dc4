package dev.engram.context;

import dev.engram.memory.Invalid;
import java.util.List;

/**
 * How one context behaves: the model's limits, the safety margin, the fill thresholds, the compaction strategy,
 * tool-output pruning, history mutation, injection defense and the token counter. Zero values take the reference's
 * defaults (see each part); negative sizes and unknown names are refused ({@link Invalid}).
 *
 * @param safetyMarginPercent the share of the context window kept free; 0 means 5
 * @param injectionDefense whether untrusted tool output is fenced in {@code <untrusted-content>} tags
 * @param tokenCounter the counter's name (see {@link TokenCounter#named})
 */
public record ContextConfig(Model model, int safetyMarginPercent, Thresholds thresholds, StrategySettings strategy,
        Pruning pruning, HistoryMutation historyMutation, boolean injectionDefense, String tokenCounter) {

    /** The safety margin a 0 takes. */
    public static final int DEFAULT_SAFETY_MARGIN = 5;

    public ContextConfig {
        model = model == null ? Model.DEFAULT : model;
        if (safetyMarginPercent < 0 || safetyMarginPercent > 100) {
            throw new Invalid("safety-margin-range", "safety_margin_percent", "safety_margin_percent is "
                    + safetyMarginPercent + "; use 0 (meaning " + DEFAULT_SAFETY_MARGIN + ") to 100.");
        }
        safetyMarginPercent = safetyMarginPercent == 0 ? DEFAULT_SAFETY_MARGIN : safetyMarginPercent;
        thresholds = thresholds == null ? Thresholds.DEFAULT : thresholds;
        strategy = strategy == null ? StrategySettings.named("sliding_window") : strategy;
        pruning = pruning == null ? Pruning.OFF : pruning;
        historyMutation = historyMutation == null ? HistoryMutation.OFF : historyMutation;
        tokenCounter = tokenCounter == null || tokenCounter.isBlank() ? "simple" : tokenCounter.strip();
        TokenCounter.named(tokenCounter);
    }

    /** Every part at its default: a 128000-token model, sliding window, pruning 3 above 50%, no mutation. */
    public static ContextConfig defaults() {
        return new ContextConfig(Model.DEFAULT, 0, Thresholds.DEFAULT, StrategySettings.named("sliding_window"),
                Pruning.DEFAULT, HistoryMutation.OFF, false, "simple");
    }

    /** This configuration for {@code newModel}. */
    public ContextConfig withModel(Model newModel) {
        return new ContextConfig(newModel, safetyMarginPercent, thresholds, strategy, pruning, historyMutation,
                injectionDefense, tokenCounter);
    }

    /** This configuration with other thresholds. */
    public ContextConfig withThresholds(Thresholds newThresholds) {
        return new ContextConfig(model, safetyMarginPercent, newThresholds, strategy, pruning, historyMutation,
                injectionDefense, tokenCounter);
    }

    /** This configuration with another strategy. */
    public ContextConfig withStrategy(StrategySettings newStrategy) {
        return new ContextConfig(model, safetyMarginPercent, thresholds, newStrategy, pruning, historyMutation,
                injectionDefense, tokenCounter);
    }

    /** This configuration with other pruning. */
    public ContextConfig withPruning(Pruning newPruning) {
        return new ContextConfig(model, safetyMarginPercent, thresholds, strategy, newPruning, historyMutation,
                injectionDefense, tokenCounter);
    }

    /** This configuration with other history mutation. */
    public ContextConfig withHistoryMutation(HistoryMutation newMutation) {
        return new ContextConfig(model, safetyMarginPercent, thresholds, strategy, pruning, newMutation,
                injectionDefense, tokenCounter);
    }

    /** This configuration with injection defense on or off. */
    public ContextConfig withInjectionDefense(boolean on) {
        return new ContextConfig(model, safetyMarginPercent, thresholds, strategy, pruning, historyMutation, on,
                tokenCounter);
    }

    /** This configuration with a safety margin. */
    public ContextConfig withSafetyMargin(int percent) {
        return new ContextConfig(model, percent, thresholds, strategy, pruning, historyMutation, injectionDefense,
                tokenCounter);
    }

    /**
     * The tokens a prompt may use: window − output limit − ⌊window · margin / 100⌋. It may be 0 or less, when the
     * output limit and the margin take the whole window.
     */
    public int effectiveMax() {
        long margin = (long) model.contextWindow() * safetyMarginPercent / 100;
        return (int) (model.contextWindow() - model.outputLimit() - margin);
    }

    /**
     * The model's limits in tokens; 0 takes the default (a window of 128000, an output limit of 4096), a negative
     * value is refused.
     */
    public record Model(int contextWindow, int outputLimit) {

        /** The limits of an unknown model. */
        public static final Model DEFAULT = new Model(0, 0);

        public Model {
            if (contextWindow < 0 || outputLimit < 0) {
                throw new Invalid("model-negative", contextWindow < 0 ? "model.context_window" : "model.output_limit",
                        "The model's context_window and output_limit are token counts; use 0 for the default or "
                                + "a positive number.");
            }
            contextWindow = contextWindow == 0 ? 128000 : contextWindow;
            outputLimit = outputLimit == 0 ? 4096 : outputLimit;
        }
    }

    /**
     * The fill percentages at which compaction is due ({@code compact}), urgent ({@code warning}) and critical
     * ({@code emergency}); each 0 takes its own default (85, 92, 98). From 100% the status is {@code reject}.
     */
    public record Thresholds(int predictivePercent, int warningPercent, int emergencyPercent) {

        /** 85, 92 and 98. */
        public static final Thresholds DEFAULT = new Thresholds(85, 92, 98);

        public Thresholds {
            if (predictivePercent < 0 || warningPercent < 0 || emergencyPercent < 0) {
                throw new Invalid("threshold-negative", "thresholds", "Fill thresholds are percentages; use 0 for "
                        + "the default (85, 92, 98) or a positive number.");
            }
            predictivePercent = predictivePercent == 0 ? 85 : predictivePercent;
            warningPercent = warningPercent == 0 ? 92 : warningPercent;
            emergencyPercent = emergencyPercent == 0 ? 98 : emergencyPercent;
        }
    }

    /**
     * Tool-output pruning: keep the last {@code keepLastN} tool outputs (0 turns pruning off) and those of
     * {@code protectedTools}; replace the others with {@code placeholderText} ("" means the default text) once the
     * fill reaches {@code thresholdPercent} (0 means always).
     */
    public record Pruning(int keepLastN, List<String> protectedTools, String placeholderText,
            double thresholdPercent) {

        /** The text a pruned output becomes when none is configured. */
        public static final String DEFAULT_PLACEHOLDER = "[Tool output pruned — not available in context. "
                + "Use search_facts for stored findings, or re-read the file if needed. "
                + "Do NOT fabricate content you cannot see.]";
        /** Pruning off (the reference's zero value). */
        public static final Pruning OFF = new Pruning(0, List.of(), "", 0);
        /** The reference's defaults: keep 3, nothing protected, default text, above 50%. */
        public static final Pruning DEFAULT = new Pruning(3, List.of(), "", 50);

        public Pruning {
            if (keepLastN < 0) {
                throw new Invalid("pruning-negative", "pruning.keep_last_n", "keep_last_n is " + keepLastN
                        + "; use 0 to turn pruning off or a positive number.");
            }
            if (!Double.isFinite(thresholdPercent) || thresholdPercent < 0) {
                throw new Invalid("pruning-threshold", "pruning.threshold_percent", "threshold_percent is "
                        + thresholdPercent + "; use 0 (always prune) or a positive percentage.");
            }
            protectedTools = protectedTools == null ? List.of() : List.copyOf(protectedTools);
            placeholderText = Text.orEmpty(placeholderText);
        }

        /** The text a pruned output becomes. */
        public String placeholder() {
            return placeholderText.isEmpty() ? DEFAULT_PLACEHOLDER : placeholderText;
        }

        /** Whether pruning is on at all. */
        public boolean on() {
            return keepLastN > 0;
        }
    }

    /**
     * Mutation of old tool results on every prompt build: replace results older than {@code toolResultEvictionStep}
     * steps with a cache reference (0: never), drop checklist updates, and replace repeated reads with a reference.
     * All off by default.
     */
    public record HistoryMutation(int toolResultEvictionStep, boolean evictStepStatus, boolean dedupRepeatedReads) {

        /** Everything off. */
        public static final HistoryMutation OFF = new HistoryMutation(0, false, false);

        public HistoryMutation {
            if (toolResultEvictionStep < 0) {
                throw new Invalid("mutation-negative", "history_mutation.tool_result_eviction_step",
                        "tool_result_eviction_step is " + toolResultEvictionStep + "; use 0 (never) or a positive "
                                + "number of steps.");
            }
        }
    }
}
