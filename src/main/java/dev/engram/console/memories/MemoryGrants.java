package dev.engram.console.memories;

import dev.engram.access.StoreAccess;
import dev.engram.access.rest.Gate;
import dev.engram.rest.Params;

/**
 * What the memories pages check first, as the memories API does: the store's id, then a caller who reads (or, for a
 * form, changes) the store's memories, which belong to no scope. A store the caller does not reach is
 * {@link dev.engram.kernel.NotFound}, as on the API.
 */
final class MemoryGrants {

    private MemoryGrants() {
    }

    /** The store's id, checked, once the caller may read its memories. */
    static String reading(Gate gate, String storeId) {
        String store = Params.store(storeId);
        gate.checkReadsMemories(store);
        return store;
    }

    /** The store's id, checked, once the caller may change its memories. */
    static String changing(Gate gate, String storeId) {
        String store = Params.store(storeId);
        gate.checkChangesMemories(store);
        return store;
    }

    /** Whether the caller may change {@code store}'s memories: the pages show their forms only then. */
    static boolean changes(Gate gate, String store) {
        StoreAccess access = gate.in(store);
        return access.reaches() && access.writesEvery();
    }
}
