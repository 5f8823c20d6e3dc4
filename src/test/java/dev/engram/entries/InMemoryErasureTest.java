package dev.engram.entries;

/** The erasure cases over the in-memory store. */
class InMemoryErasureTest extends ErasureContract {

    @Override
    protected Store newStore() {
        return new InMemoryStore("test", EntryRules.DEFAULT_MAX_ENTRY_BYTES);
    }
}
