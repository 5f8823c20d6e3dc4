package dev.engram.contexts;

/**
 * The parameters a strategy reads, each as it applies: the value configured, or the default a 0 takes there (see
 * {@link StrategySettings}). A parameter the strategy does not read is null: the sliding window reads
 * {@code keepFirst} and {@code keepLast}; {@code summarization} reads {@code blockSize}, {@code keepLast},
 * {@code observationTruncate}, {@code maxSummarizeTokens} and its summarizer; {@code hierarchical} reads the three
 * zone shares, {@code observationTruncate}, {@code maxSummarizeTokens} and its summarizer. What
 * {@link CompactionStrategy#of} builds is what this names.
 */
public record EffectiveStrategy(String name, Integer keepFirst, Integer keepLast, Integer blockSize,
        Integer observationTruncate, Double distant, Double middle, Double recent, Integer maxSummarizeTokens,
        SummarizerChoice summarizer) {

    /** The parameters {@code settings} applies, as its strategy is built. */
    public static EffectiveStrategy of(StrategySettings settings) {
        return switch (settings.name()) {
            case "summarization" -> new EffectiveStrategy(settings.name(), null,
                    settings.summarizationKeepLastOrDefault(), settings.blockSizeOrDefault(),
                    settings.observationTruncateOrDefault(), null, null, null, settings.maxSummarizeTokensOrDefault(),
                    settings.summarizer());
            case "hierarchical" -> new EffectiveStrategy(settings.name(), null, null, null,
                    settings.observationTruncateOrDefault(), settings.distantOrDefault(), settings.middleOrDefault(),
                    settings.recentOrDefault(), settings.maxSummarizeTokensOrDefault(), settings.summarizer());
            default -> new EffectiveStrategy(settings.name(), settings.keepFirstOrDefault(),
                    settings.slidingKeepLastOrDefault(), null, null, null, null, null, null, null);
        };
    }
}
