package dev.engram.contexts;

import dev.engram.kernel.Invalid;
import java.util.List;

/**
 * Which compaction strategy, with its parameters; a parameter at 0 takes the reference's default when the strategy
 * is built. {@code sliding_window} reads keepFirst (3) and keepLast (10); {@code summarization} reads blockSize
 * (10), keepLast (5) and observationTruncate (500); {@code hierarchical} reads distant, middle and recent (0.4, 0.3,
 * 0.3) and observationTruncate; all read maxSummarizeTokens (16000), and the summarizing ones ask the
 * {@code summarizer} chosen (null: the server's). A blank name is {@code sliding_window}; an unknown name, a
 * negative number or a ratio that is not finite is refused ({@link Invalid}).
 */
public record StrategySettings(String name, int keepFirst, int keepLast, int blockSize, int observationTruncate,
        double distant, double middle, double recent, int maxSummarizeTokens, SummarizerChoice summarizer) {

    /** The strategy names. */
    public static final List<String> NAMES = List.of("sliding_window", "summarization", "hierarchical");

    // The defaults a 0 takes, as the reference's factory sets them.
    public static final int DEFAULT_KEEP_FIRST = 3;
    public static final int DEFAULT_SLIDING_KEEP_LAST = 10;
    public static final int DEFAULT_BLOCK_SIZE = 10;
    public static final int DEFAULT_SUMMARIZATION_KEEP_LAST = 5;
    public static final int DEFAULT_OBSERVATION_TRUNCATE = 500;
    public static final double DEFAULT_DISTANT = 0.4;
    public static final double DEFAULT_MIDDLE = 0.3;
    public static final double DEFAULT_RECENT = 0.3;
    public static final int DEFAULT_MAX_SUMMARIZE_TOKENS = 16000;

    public StrategySettings {
        name = name == null || name.isBlank() ? "sliding_window" : name.strip();
        summarizer = summarizer == null ? SummarizerChoice.SERVER : summarizer;
        if (!NAMES.contains(name)) {
            throw new Invalid("strategy-unknown", "strategy.name", "\"" + name + "\" is not a compaction strategy. "
                    + "Use one of " + String.join(", ", NAMES) + ".");
        }
        notNegative(keepFirst, "strategy.keep_first");
        notNegative(keepLast, "strategy.keep_last");
        notNegative(blockSize, "strategy.block_size");
        notNegative(observationTruncate, "strategy.observation_truncate");
        notNegative(maxSummarizeTokens, "strategy.max_summarize_tokens");
        ratio(distant, "strategy.distant");
        ratio(middle, "strategy.middle");
        ratio(recent, "strategy.recent");
    }

    /** These settings asking the server's summarizer. */
    public StrategySettings(String name, int keepFirst, int keepLast, int blockSize, int observationTruncate,
            double distant, double middle, double recent, int maxSummarizeTokens) {
        this(name, keepFirst, keepLast, blockSize, observationTruncate, distant, middle, recent, maxSummarizeTokens,
                SummarizerChoice.SERVER);
    }

    /** These settings asking {@code choice} to summarize. */
    public StrategySettings withSummarizer(SummarizerChoice choice) {
        return new StrategySettings(name, keepFirst, keepLast, blockSize, observationTruncate, distant, middle, recent,
                maxSummarizeTokens, choice);
    }

    /** Whether this strategy summarizes (not the sliding window, which only drops steps). */
    public boolean summarizes() {
        return !name.equals("sliding_window");
    }

    /** The strategy {@code name} with every parameter at its default. */
    public static StrategySettings named(String name) {
        return new StrategySettings(name, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /** A sliding window keeping the first {@code keepFirst} and the last {@code keepLast} steps. */
    public static StrategySettings slidingWindow(int keepFirst, int keepLast) {
        return new StrategySettings("sliding_window", keepFirst, keepLast, 0, 0, 0, 0, 0, 0);
    }

    int keepFirstOrDefault() {
        return keepFirst > 0 ? keepFirst : DEFAULT_KEEP_FIRST;
    }

    int slidingKeepLastOrDefault() {
        return keepLast > 0 ? keepLast : DEFAULT_SLIDING_KEEP_LAST;
    }

    int summarizationKeepLastOrDefault() {
        return keepLast > 0 ? keepLast : DEFAULT_SUMMARIZATION_KEEP_LAST;
    }

    int blockSizeOrDefault() {
        return blockSize > 0 ? blockSize : DEFAULT_BLOCK_SIZE;
    }

    int observationTruncateOrDefault() {
        return observationTruncate > 0 ? observationTruncate : DEFAULT_OBSERVATION_TRUNCATE;
    }

    int maxSummarizeTokensOrDefault() {
        return maxSummarizeTokens > 0 ? maxSummarizeTokens : DEFAULT_MAX_SUMMARIZE_TOKENS;
    }

    double distantOrDefault() {
        return distant > 0 ? distant : DEFAULT_DISTANT;
    }

    double middleOrDefault() {
        return middle > 0 ? middle : DEFAULT_MIDDLE;
    }

    double recentOrDefault() {
        return recent > 0 ? recent : DEFAULT_RECENT;
    }

    /** {@code value} when it is set (above 0), else {@code fallback}: how every setting left at 0 takes its default. */
    static int orDefault(int value, int fallback) {
        return value > 0 ? value : fallback;
    }

    private static void notNegative(int value, String field) {
        if (value < 0) {
            throw new Invalid("strategy-negative", field, field + " is " + value + "; use 0 for the default or a "
                    + "positive number.");
        }
    }

    private static void ratio(double value, String field) {
        if (!Double.isFinite(value) || value < 0) {
            throw new Invalid("strategy-ratio", field, field + " is " + value + "; use 0 for the default or a "
                    + "positive share such as 0.4.");
        }
    }
}
