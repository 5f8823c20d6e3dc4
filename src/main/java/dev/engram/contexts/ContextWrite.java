package dev.engram.contexts;

import java.util.function.Function;

/**
 * What a change under an idempotency key came to: it {@link Landed} (made now, its answer) or it was
 * {@link Replayed} (made before with the same request; nothing was written, and the first answer is as recorded).
 */
public sealed interface ContextWrite<T> {

    /** The change was made now and answered {@code answer}. */
    record Landed<T>(T answer) implements ContextWrite<T> {
    }

    /**
     * A retry: the change was made before under its key with the same request; {@code reply} is the first answer as
     * {@link ContextStore.Once#reply} rendered it.
     */
    record Replayed<T>(String reply) implements ContextWrite<T> {

        public Replayed {
            if (reply == null) {
                throw new IllegalArgumentException("reply is null; a replay carries the recorded answer");
            }
        }
    }

    /** {@code landed} of the answer when it landed, else {@code replayed} of the recorded reply. */
    default <R> R fold(Function<T, R> landed, Function<String, R> replayed) {
        return this instanceof Landed<T> l ? landed.apply(l.answer()) : replayed.apply(((Replayed<T>) this).reply());
    }

    /** The answer of a change that landed; {@link IllegalStateException} for a replay (no change without a key is). */
    default T landed() {
        if (this instanceof Landed<T> l) {
            return l.answer();
        }
        throw new IllegalStateException("A change without an idempotency key is never replayed");
    }
}
