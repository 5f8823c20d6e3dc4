package dev.engram.entries;

/**
 * How a conformance case gets its {@link Store}: each part of {@link StoreContract} extends this, and a store's test
 * says how to make an empty store and how to reopen one.
 */
public interface StoreUnderTest {

    /** A new, empty store with the content bound {@code maxEntryBytes}. */
    Store newStore(int maxEntryBytes);

    /** The same store as a new process would open it, or null when the store does not outlive its object. */
    Store reopen(Store store);

    default Store newStore() {
        return newStore(EntryRules.DEFAULT_MAX_ENTRY_BYTES);
    }
}
