package dev.engram.entries;

import dev.engram.kernel.Scope;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a store is: its ID, the last seq of its journal, its content bound and its live entries counted by scope.
 *
 * @param created whether the call that returned this created the store
 */
public record StoreInfo(String id, long seq, int maxEntryBytes, Map<Scope, Integer> entries, Instant createdAt,
        boolean created) {

    public StoreInfo {
        Objects.requireNonNull(id, "id");
        entries = Collections.unmodifiableMap(new TreeMap<>(entries));
    }

    /** Live entries over every scope. */
    public int entryCount() {
        return entries.values().stream().mapToInt(Integer::intValue).sum();
    }
}
