package dev.engram.entries;

import java.util.Objects;

/**
 * Not a failure: a write under an {@link dev.engram.kernel.IdempotencyKey} that an earlier write already used with
 * the same request. Nothing was written; {@link #first} is what to answer.
 */
public record Replayed(Replay first) implements Written {

    public Replayed {
        Objects.requireNonNull(first, "first");
    }

    @Override
    public Change change() {
        return first.change();
    }
}
