package dev.engram.llm;

/**
 * An embedding model did not give a vector for every text: it could not be reached or loaded, took longer than its
 * timeout, or answered something that is not one finite, non-zero vector of the model's length per text. Nothing of
 * a failed call is returned; {@link #reason()} says which, as the {@code engram.embedding.failures} counter tags it.
 */
public final class EmbeddingFailed extends RuntimeException {

    /** Why a call failed; {@link #tag()} is the counter's {@code reason}. */
    public enum Reason {
        /** The model did not answer within {@code engram.embedding.timeout}. */
        TIMEOUT("timeout"),
        /** The model could not be reached: connection refused, reset, or another I/O failure. */
        UNREACHABLE("unreachable"),
        /** The model answered with an HTTP error status (a wrong key, an unknown model, an overloaded server). */
        REFUSED("refused"),
        /** The answer was not the provider's protocol: not JSON, or without the vectors. */
        UNREADABLE("unreadable"),
        /** The answer held a different number of vectors than texts were sent. */
        COUNT("count"),
        /** A vector's length was not the model's. */
        DIMENSIONS("dimensions"),
        /** A vector held NaN or an infinity. */
        NOT_FINITE("not_finite"),
        /** A vector was all zeros: it has no direction to compare. */
        ZERO("zero"),
        /** The local model could not be loaded. */
        UNAVAILABLE("unavailable");

        private final String tag;

        Reason(String tag) {
            this.tag = tag;
        }

        /** The value of the failures counter's {@code reason} tag. */
        public String tag() {
            return tag;
        }
    }

    private final Reason reason;

    EmbeddingFailed(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    /** Why the call failed. */
    public Reason reason() {
        return reason;
    }
}
