package dev.engram.access;

import dev.engram.kernel.NotFound;
import dev.engram.kernel.Scope;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one caller may do in one store, the union of its grants that cover it. A store no grant covers answers
 * every check with {@link NotFound#store}, exactly as a store that does not exist, so a key learns nothing of other
 * tenants' stores; a store it reaches answers a check it fails with {@link Denied}.
 *
 * @param writesEvery whether it writes every scope; else it writes the scopes in {@code writes} (maybe none)
 * @param readsEvery whether it reads every scope; else it reads the scopes in {@code reads}
 */
public record StoreAccess(String store, boolean reaches, boolean administers, boolean writesEvery, Set<Scope> writes,
        boolean readsEvery, Set<Scope> reads) {

    public StoreAccess {
        writes = Set.copyOf(writes);
        reads = Set.copyOf(reads);
    }

    /** The access of a caller who may do anything in {@code store}. */
    static StoreAccess all(String store) {
        return new StoreAccess(store, true, true, true, Set.of(), true, Set.of());
    }

    /** The union of {@code grants} that cover {@code store}. */
    static StoreAccess of(String store, List<Grant> grants) {
        boolean reaches = false;
        boolean administers = false;
        boolean writesEvery = false;
        boolean readsEvery = false;
        Set<Scope> writes = Set.of(); // a grant of every scope, the usual key's, adds none: no set is made for it
        Set<Scope> reads = Set.of();
        for (Grant g : grants) {
            if (!g.covers(store)) {
                continue;
            }
            reaches = true;
            administers |= g.role() == Role.ADMIN;
            boolean writer = g.role().includes(Role.WRITE);
            if (g.everyScope()) {
                readsEvery = true;
                writesEvery |= writer;
            } else {
                reads = union(reads, g.scopes(), g.readScopes());
                if (writer) {
                    writes = union(writes, g.scopes(), Set.of());
                }
            }
        }
        return new StoreAccess(store, reaches, administers, writesEvery, writes, readsEvery, reads);
    }

    private static Set<Scope> union(Set<Scope> have, Collection<Scope> more, Collection<Scope> andMore) {
        Set<Scope> all = new TreeSet<>(have);
        all.addAll(more);
        all.addAll(andMore);
        return all;
    }

    public boolean mayRead(Scope scope) {
        return reaches && (readsEvery || reads.contains(scope));
    }

    public boolean mayWrite(Scope scope) {
        return reaches && (writesEvery || writes.contains(scope));
    }

    /** Whether it writes at least one scope: what recording a session's render takes. */
    public boolean writesAny() {
        return reaches && (writesEvery || !writes.isEmpty());
    }

    /** Refuses unless it reads {@code scope}. */
    public void checkRead(Scope scope) {
        reached();
        if (!mayRead(scope)) {
            throw denied("read on scope " + scope, "read scope " + scope);
        }
    }

    /** Refuses unless it writes {@code scope}. */
    public void checkWrite(Scope scope) {
        reached();
        if (!mayWrite(scope)) {
            throw denied("write on scope " + scope, "write scope " + scope);
        }
    }

    /** Refuses unless it writes some scope of the store. */
    public void checkWritesAny() {
        reached();
        if (!writesAny()) {
            throw denied("write", "write in it");
        }
    }

    /** Refuses unless it writes every scope: what changing the store's memories takes (they have no scope). */
    public void checkWritesEvery() {
        reached();
        if (!writesEvery) {
            throw denied("write on every scope", "change its memories, which belong to no scope");
        }
    }

    /** Refuses unless it reads every scope: what the journal, the lost updates and the store's counts show. */
    public void checkReadsEvery() {
        reached();
        if (!readsEvery) {
            throw denied("read on every scope", "read what spans every scope of it (the store's counts, its "
                    + "journal, lost updates and session manifests)");
        }
    }

    /** Refuses unless it administers the store: its settings. */
    public void checkAdminister() {
        reached();
        if (!administers) {
            throw denied("admin", "change its settings");
        }
    }

    /**
     * The scopes a read of {@code requested} may see: all of them if it reads each, refused if any is outside the
     * grant, never widened. None requested means every scope it reads: none (every scope) when it reads all, else
     * its readable scopes in order.
     */
    public List<Scope> narrowReads(List<Scope> requested) {
        reached();
        if (requested.isEmpty()) {
            return readsEvery ? List.of() : reads.stream().sorted().toList();
        }
        for (Scope s : requested) {
            checkRead(s);
        }
        return requested;
    }

    /** Refuses tools asked for with writable scopes it does not write, or read-only scopes it does not read. */
    public void checkTools(List<Scope> writable, List<Scope> readOnly) {
        reached();
        List<Scope> outside = new ArrayList<>();
        writable.stream().filter(s -> !mayWrite(s)).forEach(outside::add);
        readOnly.stream().filter(s -> !mayRead(s)).forEach(outside::add);
        if (!outside.isEmpty()) {
            throw new Denied(store, "scopes " + names(outside), names(writesEvery, writes), names(readsEvery, reads),
                    "This key may not " + (outside.size() == 1 ? "use scope " : "use scopes ") + names(outside)
                    + " as asked in store " + store + ". " + allows() + " Ask for those scopes only.");
        }
    }

    /** What this access allows, in a sentence. */
    public String allows() {
        if (!writesAny()) {
            return "It may read " + scopes(readsEvery, reads) + " and write none.";
        }
        return "It may write " + scopes(writesEvery, writes) + " and read " + scopes(readsEvery, reads) + ".";
    }

    private void reached() {
        if (!reaches) {
            throw NotFound.store(store);
        }
    }

    private Denied denied(String needs, String action) {
        return new Denied(store, needs, names(writesEvery, writes), names(readsEvery, reads),
                "This key may not " + action + " in store " + store + ". " + allows());
    }

    private static String scopes(boolean every, Set<Scope> scopes) {
        if (every) {
            return "every scope";
        }
        return scopes.isEmpty() ? "no scope" : (scopes.size() == 1 ? "scope " : "scopes ") + names(scopes.stream().sorted().toList());
    }

    private static List<String> names(boolean every, Set<Scope> scopes) {
        return every ? List.of("*") : scopes.stream().map(Scope::value).sorted().toList();
    }

    private static String names(List<Scope> scopes) {
        return String.join(", ", scopes.stream().map(Scope::value).toList());
    }
}
