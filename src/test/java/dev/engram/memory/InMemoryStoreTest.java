package dev.engram.memory;

/** The conformance suite over the in-memory store. */
class InMemoryStoreTest extends StoreContract {

    @Override
    protected Store newStore(int maxEntryBytes) {
        return new InMemoryStore("test", maxEntryBytes);
    }

    @Override
    protected Store reopen(Store store) {
        return null;
    }
}
