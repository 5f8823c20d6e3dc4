package dev.engram.access;

import java.util.List;
import java.util.Objects;

/**
 * Who sent a request, as its key or token says: {@code id} (a key's id, or {@code jwt:} and the token's subject),
 * a name for logs and listings, and its grants. The operator (the key Engram starts with, or any caller with admin
 * on {@code *}) may do anything, the keys API included.
 */
public record Caller(String id, String name, List<Grant> grants, boolean operatorKey) {

    public Caller {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        grants = List.copyOf(grants);
    }

    /** The operator key's caller. */
    public static Caller operator() {
        return new Caller("operator", "operator", List.of(Grant.of("*", Role.ADMIN)), true);
    }

    /** Whether this caller is the operator: the operator key, or a grant of admin on every store. */
    public boolean isOperator() {
        return operatorKey || grants.stream().anyMatch(Grant::administersEverything);
    }

    /** What this caller may do in store {@code id}. */
    public StoreAccess in(String store) {
        return isOperator() ? StoreAccess.all(store) : StoreAccess.of(store, grants);
    }

    /** Refuses unless this caller is the operator: the keys API and the operator's endpoints. */
    public void checkOperator(String what) {
        if (!isOperator()) {
            throw new Denied(null, "operator", List.of(), List.of(), what + " is for the operator: the key Engram "
                    + "was started with (ENGRAM_ADMIN_KEY), or a key with admin on every store (\"*\").");
        }
    }
}
