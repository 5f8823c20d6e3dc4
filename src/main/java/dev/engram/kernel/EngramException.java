package dev.engram.kernel;

/**
 * Everything a store or a render refuses, as one closed family: {@link NotFound}, {@link Invalid},
 * {@link TooLarge}, {@link Conflict}, {@link Budget}, {@link Limited}, {@link KeyReused}, {@link ReflectionFailed},
 * the context tier's {@link ContextChanged} and {@link SummaryFailed}, the documents' {@link DocumentRefused} and an import's {@link ArchiveRefused}. Each carries the numbers a caller needs
 * to act, and a message that says what to do next; {@code Problems} maps each to its problem once.
 */
public abstract sealed class EngramException extends RuntimeException
        permits NotFound, Invalid, TooLarge, Conflict, Budget, Limited, KeyReused, ReflectionFailed,
        ContextChanged, SummaryFailed, DocumentRefused, ArchiveRefused {

    EngramException(String message) {
        super(message, null, false, false);
    }

    /** A refusal that an outside failure caused (a model's), kept with its stack for the log. */
    EngramException(String message, Throwable cause) {
        super(message, cause);
    }
}
