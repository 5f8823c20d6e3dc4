package dev.engram.kernel;

/**
 * Conversation compaction that could not summarize: no summarizer is configured, or the summarizer failed on a
 * block (its failure is the cause). The message says which block and what to do.
 */
public final class SummaryFailed extends EngramException {

    /** A failure with {@code message}, caused by {@code cause} (null when no summarizer was configured). */
    public SummaryFailed(String message, Throwable cause) {
        super(message, cause);
    }
}
