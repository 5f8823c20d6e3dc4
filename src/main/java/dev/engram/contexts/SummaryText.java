package dev.engram.contexts;

import dev.engram.contexts.messages.Text;
import dev.engram.contexts.tokens.TokenCounter;
import dev.engram.contexts.messages.UntrustedContent;
import java.util.Collections;
import java.util.List;

/** The texts the summarizing strategies send and fall back to. */
final class SummaryText {

    static final String TRUNCATED = "\n[... truncated for summarization ...]";

    private SummaryText() {
    }

    /**
     * {@code text} cut for the summarizer: unchanged without a counter or when it counts at most {@code maxTokens};
     * else, when it is longer than 3 bytes a token, its first {@code maxTokens·3 − 1} code points, "…" and a note.
     */
    static String capped(String text, TokenCounter counter, int maxTokens) {
        if (counter == null || maxTokens <= 0 || counter.count(text) <= maxTokens) {
            return text;
        }
        int maxChars = maxTokens * 3;
        if (Text.utf8Length(text) <= maxChars) {
            return text;
        }
        return Text.truncate(text, maxChars) + TRUNCATED;
    }

    /**
     * An observation as a summary block shows it: cut to {@code max} code points when it is longer than {@code max}
     * bytes, then fenced when the step is untrusted (whatever the defense setting: the summarizer is a model too).
     */
    static String observation(Step step, int max) {
        String observation = step.observation();
        if (Text.utf8Length(observation) > max) {
            observation = Text.truncate(observation, max);
        }
        return step.untrusted() ? UntrustedContent.wrap(observation, step.action().name()) : observation;
    }

    /**
     * The answers of {@code summarizer} for {@code texts}, one per text in order; a list of nulls without a
     * summarizer (the strategies then use their fallback texts). Asks nothing when there is no text.
     */
    static List<Summarizer.Answer> answers(Summarizer summarizer, List<String> texts) {
        if (summarizer == null || texts.isEmpty()) {
            return Collections.nCopies(texts.size(), null);
        }
        List<Summarizer.Answer> answers = summarizer.summarizeEach(List.copyOf(texts));
        if (answers == null || answers.size() != texts.size()) {
            throw new IllegalStateException("A summarizer answered " + (answers == null ? "nothing" : answers.size()
                    + " summaries") + " for " + texts.size() + " texts.");
        }
        return answers;
    }

    /** What a summarizer's failure says: its message, or its kind when it has none. */
    static String reason(RuntimeException failure) {
        String message = failure.getMessage();
        return message == null || message.isEmpty() ? failure.getClass().getSimpleName() : message;
    }
}
