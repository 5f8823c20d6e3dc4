package dev.engram.kernel;

/**
 * Everything a store or a render refuses, as one closed family: {@link NotFound}, {@link Invalid},
 * {@link TooLarge}, {@link Conflict}, {@link Budget}, {@link Limited}, {@link KeyReused} and
 * {@link ReflectionFailed}. Each carries the numbers a
 * caller needs to act, and a message that says what to do next.
 */
public abstract sealed class EngramException extends RuntimeException
        permits NotFound, Invalid, TooLarge, Conflict, Budget, Limited, KeyReused, ReflectionFailed {

    EngramException(String message) {
        super(message, null, false, false);
    }
}
