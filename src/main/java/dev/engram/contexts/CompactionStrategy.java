package dev.engram.contexts;

import dev.engram.contexts.messages.Message;
import dev.engram.contexts.tokens.TokenCounter;
import java.util.List;

/**
 * Turns a context's whole step history into a shorter list of messages that stands for it. Strategies never
 * reorder: kept steps and summaries appear in the order of the steps they stand for. The budget is passed for
 * strategies that want it; the reference's strategies ignore it.
 */
public interface CompactionStrategy {

    /** The messages standing for {@code steps}; a history too short to compact comes back rendered verbatim. */
    List<Message> compact(List<Step> steps, int budgetTokens);

    /**
     * The steps that {@link #compact} of {@code steps} steps shows as summaries or a note of their omission rather
     * than verbatim: one run of them, empty ({@code from == to}) when it shows every step verbatim.
     */
    Replaced replaced(int steps);

    /**
     * Steps {@code from} (inclusive) to {@code to} (exclusive), by index from 0, that a compaction replaced with
     * summaries or a note; {@code from == to} when it replaced none.
     */
    record Replaced(int from, int to) {

        /** None replaced. */
        public static final Replaced NONE = new Replaced(0, 0);

        public Replaced {
            if (from < 0 || to < from) {
                throw new IllegalArgumentException("steps " + from + " to " + to + " are no run of steps");
            }
        }

        /** How many steps were replaced. */
        public int count() {
            return to - from;
        }
    }

    /**
     * The strategy {@code settings} name, with its defaults applied. A summarizing strategy without a
     * {@code summarizer} puts the reference's fallback texts in place of summaries; {@code counter} (may be null)
     * caps the text sent to the summarizer.
     */
    static CompactionStrategy of(StrategySettings settings, Summarizer summarizer, TokenCounter counter) {
        return switch (settings.name()) {
            case "summarization" -> new Summarization(settings.blockSizeOrDefault(),
                    settings.summarizationKeepLastOrDefault(), settings.observationTruncateOrDefault(), summarizer,
                    counter, settings.maxSummarizeTokensOrDefault());
            case "hierarchical" -> new Hierarchical(settings.distantOrDefault(), settings.middleOrDefault(),
                    settings.recentOrDefault(), settings.observationTruncateOrDefault(), summarizer, counter,
                    settings.maxSummarizeTokensOrDefault());
            default -> new SlidingWindow(settings.keepFirstOrDefault(), settings.slidingKeepLastOrDefault());
        };
    }

    /** A sliding window keeping the first {@code keepFirst} and last {@code keepLast} steps; negatives count as 0. */
    static CompactionStrategy slidingWindow(int keepFirst, int keepLast) {
        return new SlidingWindow(keepFirst, keepLast);
    }

    /** Summarization in blocks of {@code blockSize} keeping the last {@code keepLast}; values ≤ 0 take defaults. */
    static CompactionStrategy summarization(int blockSize, int keepLast, int observationTruncate,
            Summarizer summarizer, TokenCounter counter, int maxSummarizeTokens) {
        return new Summarization(blockSize, keepLast, observationTruncate, summarizer, counter, maxSummarizeTokens);
    }

    /** Three zones by the shares {@code distant}, {@code middle}, {@code recent} (normalized to sum to 1). */
    static CompactionStrategy hierarchical(double distant, double middle, double recent, int observationTruncate,
            Summarizer summarizer, TokenCounter counter, int maxSummarizeTokens) {
        return new Hierarchical(distant, middle, recent, observationTruncate, summarizer, counter,
                maxSummarizeTokens);
    }
}
