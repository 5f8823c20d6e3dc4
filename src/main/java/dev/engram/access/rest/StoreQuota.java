package dev.engram.access.rest;

import com.github.benmanes.caffeine.cache.Cache;
import dev.engram.access.Caller;
import dev.engram.kernel.Limited;
import dev.engram.entries.Stores;
import dev.engram.ops.EngramConfig;
import dev.engram.entries.persistence.PgStoreCreators;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The quota of stores per key: before a write that may create its store, a key (the operator key aside) claims the
 * store, and is refused once it created {@code engram.limits.stores-per-key}. Stores are never deleted, so a store
 * seen to exist is remembered and a write to it costs no look-up.
 */
@ApplicationScoped
public class StoreQuota {

    @Inject
    Stores stores;

    @Inject
    PgStoreCreators creators;

    @Inject
    EngramConfig config;

    private final Cache<String, Boolean> existing = Caches.keptByTheirCallers().maximumSize(100_000).build();

    /** Lets {@code caller} write to {@code store}, creating it; {@link Limited} (QUOTA) when over its quota. */
    void claim(Caller caller, String store) {
        if (caller.operatorKey() || existing.getIfPresent(store) != null) {
            return;
        }
        if (stores.exists(store)) {
            existing.put(store, Boolean.TRUE);
            return;
        }
        int max = config.limits().storesPerKey();
        if (!creators.claim(store, caller.id(), max)) {
            throw new Limited(Limited.Kind.QUOTA, "stores-per-key", max, 0, "This key already created " + max
                    + " stores, its most, and " + store + " would be one more. Write into a store it created, or "
                    + "ask the operator for a key with a larger quota (ENGRAM_LIMITS_STORES_PER_KEY).");
        }
    }
}
