package dev.engram.memories;

import java.util.Objects;
import java.util.function.Function;

/**
 * What a save under an idempotency key did: {@link Landed}, written now, or {@link Replayed}, a retry that wrote
 * nothing and answers what the first save under the key answered (the memory may have changed since).
 *
 * @param <T> the memory, or the memories of a batch, as stored
 */
public sealed interface Saved<T> permits Saved.Landed, Saved.Replayed {

    /** The memory (or batch) as this save stored it, or as the first save under the key did. */
    T value();

    /** The same outcome, its value changed by {@code f}: a replay stays a replay with its reply. */
    default <U> Saved<U> map(Function<? super T, ? extends U> f) {
        return this instanceof Replayed<T> r ? new Replayed<>(f.apply(r.value()), r.reply())
                : new Landed<>(f.apply(value()));
    }

    /** A save that wrote {@code value} now. */
    record Landed<T>(T value) implements Saved<T> {

        public Landed {
            Objects.requireNonNull(value, "value");
        }
    }

    /** A retry: nothing written; {@code value} as first saved, {@code reply} what it recorded beside it ("" for none). */
    record Replayed<T>(T value, String reply) implements Saved<T> {

        public Replayed {
            Objects.requireNonNull(value, "value");
            reply = reply == null ? "" : reply;
        }
    }
}
