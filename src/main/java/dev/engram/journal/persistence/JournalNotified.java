package dev.engram.journal.persistence;

/**
 * A CDI event fired when another replica said that store {@code store}'s journal moved, or, with
 * {@link #EVERY_STORE}, when notifications may have been missed and every journal may have moved.
 */
public record JournalNotified(String store) {

    /** Every store's journal may have moved (the listener reconnected). */
    public static final JournalNotified EVERY_STORE = new JournalNotified("");

    /** Whether this concerns store {@code id}. */
    public boolean concerns(String id) {
        return store.isEmpty() || store.equals(id);
    }
}
