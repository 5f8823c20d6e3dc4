package dev.engram.context;

/**
 * What turns a block of steps (or of conversation) into a short summary, typically a model call. A summarizer that
 * fails throws; the step strategies then put a fallback text in the summary's place, and conversation compaction
 * refuses ({@link SummaryFailed}).
 */
@FunctionalInterface
public interface Summarizer {

    /** A summary of {@code text}; never null. Throws when it cannot answer (its message is shown in fallbacks). */
    String summarize(String text);
}
