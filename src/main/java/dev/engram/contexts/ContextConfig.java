package dev.engram.contexts;

import dev.engram.contexts.messages.Text;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import dev.engram.entries.render.RenderOptions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How one context behaves: the model's limits, the safety margin, the fill thresholds, the compaction strategy,
 * tool-output pruning, history mutation, injection defense and the token counter. Zero values take the reference's
 * defaults (see each part); negative sizes and unknown names are refused ({@link Invalid}).
 *
 * @param safetyMarginPercent the share of the context window kept free; 0 means 5
 * @param injectionDefense whether untrusted tool output is fenced in {@code <untrusted-content>} tags
 * @param tokenCounter the counter's name (see {@link TokenCounter#named})
 * @param memory the store's scopes whose rendered entries the prompt carries ({@link Memory#NONE}: no block)
 */
public record ContextConfig(Model model, int safetyMarginPercent, Thresholds thresholds, StrategySettings strategy,
        Pruning pruning, HistoryMutation historyMutation, boolean injectionDefense, String tokenCounter,
        Memory memory) {

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
        memory = memory == null ? Memory.NONE : memory;
    }

    /** A configuration whose prompt carries no memory block. */
    public ContextConfig(Model model, int safetyMarginPercent, Thresholds thresholds, StrategySettings strategy,
            Pruning pruning, HistoryMutation historyMutation, boolean injectionDefense, String tokenCounter) {
        this(model, safetyMarginPercent, thresholds, strategy, pruning, historyMutation, injectionDefense,
                tokenCounter, Memory.NONE);
    }

    /** Every part at its default: a 128000-token model, sliding window, pruning 3 above 50%, no mutation. */
    public static ContextConfig defaults() {
        return new ContextConfig(Model.DEFAULT, 0, Thresholds.DEFAULT, StrategySettings.named("sliding_window"),
                Pruning.DEFAULT, HistoryMutation.OFF, false, "simple");
    }

    /** This configuration for {@code newModel}. */
    public ContextConfig withModel(Model newModel) {
        return new ContextConfig(newModel, safetyMarginPercent, thresholds, strategy, pruning, historyMutation,
                injectionDefense, tokenCounter, memory);
    }

    /** This configuration with other thresholds. */
    public ContextConfig withThresholds(Thresholds newThresholds) {
        return new ContextConfig(model, safetyMarginPercent, newThresholds, strategy, pruning, historyMutation,
                injectionDefense, tokenCounter, memory);
    }

    /** This configuration with another strategy. */
    public ContextConfig withStrategy(StrategySettings newStrategy) {
        return new ContextConfig(model, safetyMarginPercent, thresholds, newStrategy, pruning, historyMutation,
                injectionDefense, tokenCounter, memory);
    }

    /** This configuration with other pruning. */
    public ContextConfig withPruning(Pruning newPruning) {
        return new ContextConfig(model, safetyMarginPercent, thresholds, strategy, newPruning, historyMutation,
                injectionDefense, tokenCounter, memory);
    }

    /** This configuration with other history mutation. */
    public ContextConfig withHistoryMutation(HistoryMutation newMutation) {
        return new ContextConfig(model, safetyMarginPercent, thresholds, strategy, pruning, newMutation,
                injectionDefense, tokenCounter, memory);
    }

    /** This configuration with injection defense on or off. */
    public ContextConfig withInjectionDefense(boolean on) {
        return new ContextConfig(model, safetyMarginPercent, thresholds, strategy, pruning, historyMutation, on,
                tokenCounter, memory);
    }

    /** This configuration with another memory block (or {@link Memory#NONE}). */
    public ContextConfig withMemory(Memory newMemory) {
        return new ContextConfig(model, safetyMarginPercent, thresholds, strategy, pruning, historyMutation,
                injectionDefense, tokenCounter, newMemory);
    }

    /** This configuration with a safety margin. */
    public ContextConfig withSafetyMargin(int percent) {
        return new ContextConfig(model, percent, thresholds, strategy, pruning, historyMutation, injectionDefense,
                tokenCounter, memory);
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

    /**
     * The memory block a prompt carries: the entries of {@code scopes} of the context's store, rendered in that order
     * as {@code GET .../render} renders them, bounded by {@code maxTotalBytes} (0 takes the render's default, 32768)
     * and {@code scopeMaxBytes} per scope. No scopes means no block; a bound or a cap without them is refused, as is
     * a scope that is not kebab-case, named twice, or capped without being named, and a negative size.
     */
    public record Memory(List<String> scopes, int maxTotalBytes, Map<String, Integer> scopeMaxBytes) {

        /** No block. */
        public static final Memory NONE = new Memory(List.of(), 0, Map.of());
        /** The most scopes one block may name. */
        public static final int MAX_SCOPES = 100;

        public Memory {
            scopes = scopes == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(scopes));
            scopeMaxBytes = scopeMaxBytes == null ? Map.of()
                    : Collections.unmodifiableMap(new TreeMap<>(scopeMaxBytes));
            if (scopes.isEmpty() && (maxTotalBytes != 0 || !scopeMaxBytes.isEmpty())) {
                throw new Invalid("memory-scopes-missing", "memory.scopes", "A memory block names the scopes it "
                        + "shows, in order, such as [\"user\", \"project\"]; without scopes the prompt carries no "
                        + "block, so leave max_total_bytes and scope_max_bytes out too.");
            }
            if (scopes.size() > MAX_SCOPES) {
                throw new Invalid("memory-scopes-count", "memory.scopes", "A memory block shows at most "
                        + MAX_SCOPES + " scopes, not " + scopes.size() + ".");
            }
            Set<String> seen = new HashSet<>();
            for (String scope : scopes) {
                if (scope == null || !new Scope(scope).isValid()) {
                    throw new Invalid("scope-format", "memory.scopes", "Scope \"" + Text.orEmpty(scope)
                            + "\" is not a scope: use kebab-case, 1 to 64 lowercase letters and digits in groups "
                            + "joined by single hyphens, such as user.");
                }
                if (!seen.add(scope)) {
                    throw new Invalid("scope-repeated", "memory.scopes", "Scope " + scope + " is named twice; name "
                            + "each scope once, in the order the block should show them.");
                }
            }
            if (maxTotalBytes < 0) {
                throw new Invalid("memory-negative", "memory.max_total_bytes", "max_total_bytes is "
                        + maxTotalBytes + "; use 0 for the default (" + RenderOptions.DEFAULT_MAX_TOTAL_BYTES
                        + ") or a positive number of bytes.");
            }
            maxTotalBytes = maxTotalBytes == 0 && !scopes.isEmpty() ? RenderOptions.DEFAULT_MAX_TOTAL_BYTES
                    : maxTotalBytes;
            for (Map.Entry<String, Integer> cap : scopeMaxBytes.entrySet()) {
                if (!seen.contains(cap.getKey())) {
                    throw new Invalid("memory-cap-scope", "memory.scope_max_bytes", "scope_max_bytes caps scope "
                            + cap.getKey() + ", which the block does not show; cap only scopes named in scopes.");
                }
                if (cap.getValue() == null || cap.getValue() < 0) {
                    throw new Invalid("memory-negative", "memory.scope_max_bytes", "scope_max_bytes of "
                            + cap.getKey() + " is " + cap.getValue() + "; a cap is 0 (show none of its entries) or "
                            + "more bytes.");
                }
            }
        }

        /** Whether the prompt carries a block: some scope is named. */
        public boolean renders() {
            return !scopes.isEmpty();
        }
    }
}
