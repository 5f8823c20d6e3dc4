package dev.engram.entries;

import java.util.Objects;

/**
 * What the first write under an {@link IdempotencyKey} answered: the journal record it appended, as the journal holds
 * it now (blank if the entry was erased since), and the reply recorded with the key ("" for none).
 */
public record Replay(Change change, String reply) {

    public Replay {
        Objects.requireNonNull(change, "change");
        reply = reply == null ? "" : reply;
    }
}
