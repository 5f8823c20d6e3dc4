package dev.engram.contexts;

import dev.engram.contexts.messages.Message;
import dev.engram.contexts.tokens.TokenCounter;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the last L steps and replaces the older ones, in blocks of B, by one {@code system} message each: the
 * summarizer's answer verbatim, {@code [... K steps summarized ...]} without a summarizer, or
 * {@code [Summary of steps A-B failed: ERR]} when it fails (the other blocks still go on).
 */
final class Summarization implements CompactionStrategy {

    private final int blockSize;
    private final int keepLast;
    private final Summarizing summarizing;

    Summarization(int blockSize, int keepLast, int observationTruncate, Summarizer summarizer, TokenCounter counter,
            int maxSummarizeTokens) {
        this.blockSize = blockSize > 0 ? blockSize : StrategySettings.DEFAULT_BLOCK_SIZE;
        this.keepLast = keepLast > 0 ? keepLast : StrategySettings.DEFAULT_SUMMARIZATION_KEEP_LAST;
        this.summarizing = new Summarizing(observationTruncate, summarizer, counter, maxSummarizeTokens);
    }

    @Override
    public List<Message> compact(List<Step> steps, int budgetTokens) {
        int n = steps.size();
        if (n <= keepLast) {
            return Transcript.of(steps);
        }
        int summarized = n - keepLast;
        List<String> texts = new ArrayList<>();
        for (int start = 0; start < summarized; start += blockSize) {
            List<Step> block = steps.subList(start, Math.min(start + blockSize, summarized));
            texts.add(summarizing.capped(blockText(block)));
        }
        List<Summarizer.Answer> answers = summarizing.answers(texts);
        List<Message> messages = new ArrayList<>();
        for (int b = 0; b < texts.size(); b++) {
            int start = b * blockSize;
            int end = Math.min(start + blockSize, summarized);
            messages.add(Message.system(summary(answers.get(b), end - start, start, end)));
        }
        messages.addAll(Transcript.of(steps.subList(summarized, n)));
        return messages;
    }

    @Override
    public Replaced replaced(int steps) {
        return steps <= keepLast ? Replaced.NONE : new Replaced(0, steps - keepLast);
    }

    /** A block's message: the summary, or the fallback text without a summarizer (a null answer) or on failure. */
    private static String summary(Summarizer.Answer answer, int size, int start, int end) {
        if (answer == null) {
            return "[... " + size + " steps summarized ...]";
        }
        if (answer.failed()) {
            return "[Summary of steps " + (start + 1) + "-" + end + " failed: " + SummaryText.reason(answer.failure())
                    + "]";
        }
        return answer.summary();
    }

    /** {@code Step i:} and the step's non-empty thought, action and observation, one block per step. */
    String blockText(List<Step> block) {
        List<String> parts = new ArrayList<>(block.size());
        for (int i = 0; i < block.size(); i++) {
            Step step = block.get(i);
            StringBuilder text = new StringBuilder("Step ").append(i + 1).append(":\n");
            if (!step.thought().isEmpty()) {
                text.append("  Thought: ").append(step.thought()).append('\n');
            }
            if (!step.action().name().isEmpty()) {
                text.append("  Action: ").append(step.action().name()).append('\n');
            }
            if (!step.observation().isEmpty()) {
                text.append("  Observation: ").append(SummaryText.observation(step, summarizing.observationTruncate()))
                        .append('\n');
            }
            parts.add(text.toString());
        }
        return String.join("\n", parts);
    }
}
