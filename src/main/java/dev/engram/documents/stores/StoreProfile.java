package dev.engram.documents.stores;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A store as a memory store of the Memory Stores API: its name, description and metadata, its times, and when it was
 * archived (null while it is not). A store that was never given a profile answers with its id as its name, an empty
 * description and metadata, and its creation time for both times ({@link #bare}).
 */
public record StoreProfile(String store, String name, String description, Map<String, String> metadata,
        Instant createdAt, Instant updatedAt, Instant archivedAt) {

    public StoreProfile {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        metadata = java.util.Collections.unmodifiableMap(new TreeMap<>(metadata));
    }

    /** The profile of store {@code store}, created at {@code createdAt}, that was never given one. */
    public static StoreProfile bare(String store, Instant createdAt) {
        return new StoreProfile(store, store, "", Map.of(), createdAt, createdAt, null);
    }

    public boolean archived() {
        return archivedAt != null;
    }
}
