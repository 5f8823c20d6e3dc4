package dev.engram.console.contexts;

import dev.engram.contexts.ContextConfig;
import dev.engram.contexts.EffectiveStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A context's configuration as the rows of its page, each value as it applies (the defaults filled in, a strategy's
 * parameters only those it reads), in words. Values a context's writer chose (tool names, the placeholder text,
 * scopes) are shown as text: the page escapes them.
 */
final class ContextSettings {

    /** One row: what it is, and its value. */
    record Setting(String label, String value) {
    }

    private ContextSettings() {
    }

    static List<Setting> of(ContextConfig c) {
        List<Setting> rows = new ArrayList<>();
        rows.add(new Setting("Model window", tokens(c.model().contextWindow())));
        rows.add(new Setting("Output limit", tokens(c.model().outputLimit())));
        rows.add(new Setting("Safety margin", c.safetyMarginPercent() + "%"));
        rows.add(new Setting("Effective maximum", tokens(c.effectiveMax()) + " (window less output and margin)"));
        ContextConfig.Thresholds t = c.thresholds();
        rows.add(new Setting("Thresholds", "compact at " + t.predictivePercent() + "%, warning at "
                + t.warningPercent() + "%, emergency at " + t.emergencyPercent() + "%"));
        rows.add(new Setting("Strategy", strategy(EffectiveStrategy.of(c.strategy()))));
        ContextConfig.Pruning p = c.pruning();
        rows.add(new Setting("Pruning", !p.on() ? "off" : "keeps the last " + p.keepLastN() + " tool outputs"
                + (p.protectedTools().isEmpty() ? "" : " and those of " + String.join(", ", p.protectedTools()))
                + (p.thresholdPercent() > 0 ? ", from " + number(p.thresholdPercent()) + "% full" : ", always")));
        if (p.on()) {
            rows.add(new Setting("Pruned output reads", p.placeholder()));
        }
        ContextConfig.HistoryMutation m = c.historyMutation();
        List<String> mutation = new ArrayList<>();
        if (m.toolResultEvictionStep() > 0) {
            mutation.add("evicts tool results after " + m.toolResultEvictionStep() + " steps");
        }
        if (m.evictStepStatus()) {
            mutation.add("evicts step status");
        }
        if (m.dedupRepeatedReads()) {
            mutation.add("drops repeated reads");
        }
        rows.add(new Setting("History mutation", mutation.isEmpty() ? "off" : String.join(", ", mutation)));
        rows.add(new Setting("Injection defense", c.injectionDefense() ? "on: untrusted outputs are fenced" : "off"));
        rows.add(new Setting("Token counter", c.tokenCounter()));
        ContextConfig.Memory memory = c.memory();
        rows.add(new Setting("Memory block", !memory.renders() ? "none" : "scopes " + String.join(", ",
                memory.scopes()) + (memory.maxTotalBytes() > 0 ? String.format(Locale.ROOT, ", at most %,d bytes",
                memory.maxTotalBytes()) : "")));
        return List.copyOf(rows);
    }

    private static String strategy(EffectiveStrategy s) {
        List<String> parts = new ArrayList<>();
        if (s.keepFirst() != null) {
            parts.add("keeps the first " + s.keepFirst());
        }
        if (s.keepLast() != null) {
            parts.add("keeps the last " + s.keepLast());
        }
        if (s.blockSize() != null) {
            parts.add("summarizes blocks of " + s.blockSize());
        }
        if (s.distant() != null) {
            parts.add("zones " + number(s.distant()) + " / " + number(s.middle()) + " / " + number(s.recent()));
        }
        if (s.observationTruncate() != null) {
            parts.add("observations cut at " + s.observationTruncate() + " characters");
        }
        if (s.maxSummarizeTokens() != null) {
            parts.add("at most " + s.maxSummarizeTokens() + " tokens sent a summary");
        }
        if (s.summarizer() != null) {
            parts.add("summarizer " + (s.summarizer().kind().equals("model") ? s.summarizer().model()
                    : s.summarizer().kind()));
        }
        return s.name().replace('_', ' ') + (parts.isEmpty() ? "" : ": " + String.join(", ", parts));
    }

    private static String tokens(int n) {
        return String.format(Locale.ROOT, "%,d tokens", n);
    }

    private static String number(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
