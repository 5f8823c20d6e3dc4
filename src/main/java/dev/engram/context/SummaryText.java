package dev.engram.context;

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

    /** What a summarizer's failure says: its message, or its kind when it has none. */
    static String reason(RuntimeException failure) {
        String message = failure.getMessage();
        return message == null || message.isEmpty() ? failure.getClass().getSimpleName() : message;
    }
}
