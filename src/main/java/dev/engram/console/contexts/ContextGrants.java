package dev.engram.console.contexts;

import dev.engram.access.StoreAccess;
import dev.engram.console.ConsoleRequest;
import dev.engram.contexts.ContextRules;
import dev.engram.rest.Params;

/**
 * What the contexts pages check first, as the contexts API does: the store's and the context's ids, then a caller who
 * reads (or, for a form, writes) every scope of the store, since a context belongs to no scope. A store the caller
 * does not reach is {@link dev.engram.kernel.NotFound}, as on the API.
 */
final class ContextGrants {

    private ContextGrants() {
    }

    /** The caller's access to {@code store}, refused unless it reads every scope; the store's id checked. */
    static StoreAccess reading(ConsoleRequest request, String store) {
        StoreAccess access = request.caller().in(Params.store(store));
        access.checkReadsEvery();
        return access;
    }

    /** As {@link #reading}, and {@code id} checked as a context's id. */
    static StoreAccess reading(ConsoleRequest request, String store, String id) {
        StoreAccess access = reading(request, store);
        ContextRules.checkId(id);
        return access;
    }

    /** The caller's access to {@code store}, refused unless it writes every scope; both ids checked. */
    static StoreAccess writing(ConsoleRequest request, String store, String id) {
        StoreAccess access = request.caller().in(Params.store(store));
        access.checkWritesEvery();
        ContextRules.checkId(id);
        return access;
    }

    /** The path of context {@code id}'s page, and {@code suffix} after it. */
    static String path(String store, String id, String suffix) {
        return "/console/stores/" + store + "/contexts/" + java.net.URLEncoder.encode(id,
                java.nio.charset.StandardCharsets.UTF_8) + suffix;
    }
}
