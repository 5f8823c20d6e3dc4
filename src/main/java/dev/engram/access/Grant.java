package dev.engram.access;

import dev.engram.entries.EntryRules;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One grant of a key or token: the stores it covers (an id or a glob, see {@link StorePattern}), the role it has in
 * them, and optionally the scopes it covers. With no {@code scopes} the grant covers every scope of those stores;
 * with them, it reads and (by its role) writes only those, and {@code readScopes} adds scopes it may only read. An
 * admin grant covers whole stores, so it takes no scopes.
 */
public record Grant(String stores, Role role, List<Scope> scopes, List<Scope> readScopes) {

    /** The most scopes one grant may list, writable and read-only together. */
    public static final int MAX_SCOPES = 100;

    public Grant {
        StorePattern.check(stores, "stores");
        if (role == null) {
            throw new Invalid("role-unknown", "role", "A grant needs a role: read, write or admin.");
        }
        scopes = List.copyOf(Objects.requireNonNull(scopes, "scopes"));
        readScopes = List.copyOf(Objects.requireNonNull(readScopes, "readScopes"));
        if (scopes.size() + readScopes.size() > MAX_SCOPES) {
            throw new Invalid("scopes-count", "scopes", "A grant may list at most " + MAX_SCOPES + " scopes; "
                    + "leave scopes out to cover every scope.");
        }
        if (role == Role.ADMIN && !(scopes.isEmpty() && readScopes.isEmpty())) {
            throw new Invalid("admin-scopes", "scopes", "An admin grant covers whole stores (their settings span "
                    + "every scope); leave scopes and read_scopes out, or give role write.");
        }
        if (scopes.isEmpty() && !readScopes.isEmpty()) {
            throw new Invalid("read-scopes-alone", "read_scopes", "read_scopes adds read-only scopes to the scopes "
                    + "a grant covers; without scopes the grant already reads every scope. Name the scopes it "
                    + "covers in scopes.");
        }
        Set<Scope> seen = new HashSet<>();
        for (Scope s : scopes) {
            checkScope(s, "scopes", seen);
        }
        for (Scope s : readScopes) {
            checkScope(s, "read_scopes", seen);
        }
    }

    private static void checkScope(Scope s, String field, Set<Scope> seen) {
        if (s == null || !s.isValid()) {
            throw new Invalid("scope-format", field, "Scope \"" + Text.shown(s == null ? "" : s.value()) + "\" is not "
                    + "kebab-case: use 1 to " + EntryRules.MAX_NAME_BYTES + " lowercase letters and digits in groups "
                    + "joined by single hyphens, such as user.");
        }
        if (!seen.add(s)) {
            throw new Invalid("scope-repeated", field, "Scope " + s + " is named twice, or in both scopes and "
                    + "read_scopes; name each scope once.");
        }
    }

    /** A grant of {@code role} on every scope of the stores {@code stores} covers. */
    public static Grant of(String stores, Role role) {
        return new Grant(stores, role, List.of(), List.of());
    }

    /** Whether this grant covers store {@code id}. */
    public boolean covers(String id) {
        return StorePattern.matches(stores, id);
    }

    /** Whether this grant covers every scope of its stores. */
    public boolean everyScope() {
        return scopes.isEmpty();
    }

    /** Whether this grant reads {@code scope} in the stores it covers. */
    public boolean reads(Scope scope) {
        return scopes.isEmpty() || scopes.contains(scope) || readScopes.contains(scope);
    }

    /** Whether this grant writes {@code scope} in the stores it covers: role write or admin, and a scope it writes. */
    public boolean writes(Scope scope) {
        return role.includes(Role.WRITE) && (scopes.isEmpty() || scopes.contains(scope));
    }

    /** Whether this grant administers every store there is: the operator's grant. */
    public boolean administersEverything() {
        return role == Role.ADMIN && stores.chars().allMatch(c -> c == '*');
    }
}
