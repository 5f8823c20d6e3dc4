package dev.engram.entries;

/** The idempotency cases over the in-memory store. */
class InMemoryIdempotencyTest extends IdempotencyContract {

    @Override
    protected Store newStore(int maxEntryBytes) {
        return new InMemoryStore("test", maxEntryBytes);
    }

    @Override
    protected Store reopen(Store store) {
        return null;
    }
}
