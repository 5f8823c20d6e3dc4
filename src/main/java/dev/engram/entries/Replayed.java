package dev.engram.entries;

import java.util.Objects;

/**
 * Not a failure: a write under an {@link IdempotencyKey} that an earlier write already used with the same request.
 * Nothing was written; {@link #first} is what to answer. Thrown by {@link Store#put} and {@link Store#forget} so that
 * a caller tells a replay from a write it made, and answers it without counting a second write.
 */
public final class Replayed extends RuntimeException {

    private final transient Replay first;

    public Replayed(Replay first) {
        super("replayed seq " + first.change().seq(), null, false, false);
        this.first = Objects.requireNonNull(first, "first");
    }

    /** What the first write under the key answered. */
    public Replay first() {
        return first;
    }
}
