package dev.engram.contexts;

import static dev.engram.contexts.Steps.model;
import static dev.engram.contexts.Steps.numbered;

import dev.engram.contexts.messages.Message;
import dev.engram.contexts.tokens.TokenCounter;
import java.util.List;

/**
 * How a scenario of {@link ScenarioContract} gets its context ({@link #newKeeper}), and the configurations the
 * scenarios build it of.
 */
public interface ScenarioUnderTest {

    /** A keeper for one new context. */
    ScenarioContract.Keeper newKeeper();

    ContextConfig DEFAULT_MODEL = model(128000, 4096);
    TokenCounter SIMPLE = TokenCounter.simple();

    /** A kept context under {@code config} with the simple counter, no summarizer and the system prompt "System". */
    default KeptContext kept(ContextConfig config) {
        return new KeptContext(newKeeper(), config, SIMPLE, null, "System");
    }

    default KeptContext kept(ContextConfig config, Summarizer summarizer) {
        return new KeptContext(newKeeper(), config, SIMPLE, summarizer, "System");
    }

    static ContextConfig strategy(StrategySettings settings) {
        return DEFAULT_MODEL.withStrategy(settings);
    }

    static StrategySettings sliding(int keepFirst, int keepLast) {
        return new StrategySettings("sliding_window", keepFirst, keepLast, 0, 0, 0, 0, 0, 0);
    }

    static StrategySettings summarization(int blockSize, int keepLast, int maxSummarizeTokens) {
        return new StrategySettings("summarization", 0, keepLast, blockSize, 0, 0, 0, 0, maxSummarizeTokens);
    }

    /** The prefix {@code settings} compacts {@code steps} numbered steps into, through a kept context. */
    default List<Message> compacted(StrategySettings settings, Summarizer summarizer, int steps) {
        KeptContext context = kept(strategy(settings), summarizer);
        context.addSteps(numbered(steps));
        context.compact();
        return context.compactedPrefix();
    }
}
