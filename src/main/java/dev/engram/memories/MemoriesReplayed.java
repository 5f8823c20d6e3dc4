package dev.engram.memories;

import java.util.List;

/**
 * A batch save under an idempotency key that saved before: nothing was written, and {@code first} are the memories
 * as that first batch answered them, in its order (they may have changed since).
 */
public final class MemoriesReplayed extends RuntimeException {

    private final transient List<Memory> first;

    public MemoriesReplayed(List<Memory> first) {
        super(null, null, false, false);
        this.first = List.copyOf(first);
    }

    public List<Memory> first() {
        return first;
    }
}
