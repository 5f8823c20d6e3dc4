package dev.engram.contexts;

import dev.engram.contexts.tokens.TokenCounter;
import java.util.List;

/**
 * What the two summarizing strategies share: the summarizer (null: the fallback texts), the counter that caps what
 * it is sent (null: no cap) and that cap, and how much of an observation a block quotes. A cap or truncation left at
 * 0 (or below) takes its default.
 */
record Summarizing(int observationTruncate, Summarizer summarizer, TokenCounter counter, int maxSummarizeTokens) {

    Summarizing {
        observationTruncate = StrategySettings.orDefault(observationTruncate,
                StrategySettings.DEFAULT_OBSERVATION_TRUNCATE);
        maxSummarizeTokens = StrategySettings.orDefault(maxSummarizeTokens,
                StrategySettings.DEFAULT_MAX_SUMMARIZE_TOKENS);
    }

    /** A block's text as the summarizer is sent it, cut to the cap. */
    String capped(String text) {
        return SummaryText.capped(text, counter, maxSummarizeTokens);
    }

    /** The summarizer's answers to {@code texts}, in their order. */
    List<Summarizer.Answer> answers(List<String> texts) {
        return SummaryText.answers(summarizer, texts);
    }
}
