package dev.engram.memory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Entries and the journal of every change to them, for one tenant. Every implementation passes the conformance
 * suite ({@code StoreContract}).
 */
public interface Store {

    /** The store's ID, kebab-case. */
    String id();

    /** One live entry; {@link NotFound} when there is none. */
    Entry get(Scope scope, String name);

    /** The live entries of a scope, by name in byte order; an unknown scope lists nothing. */
    List<Entry> list(Scope scope);

    /**
     * The live entries of each of {@code scopes}, in the order given, each list by name; with no scopes, those of
     * every scope the store holds, in byte order. A store that can reads them in one go.
     */
    default Map<Scope, List<Entry>> listScopes(List<Scope> scopes) {
        Map<Scope, List<Entry>> lists = new LinkedHashMap<>();
        if (scopes.isEmpty()) {
            for (Entry e : search(List.of(), "", 0)) {
                lists.computeIfAbsent(e.scope(), s -> new java.util.ArrayList<>()).add(e);
            }
            return lists;
        }
        for (Scope scope : scopes) {
            lists.put(scope, list(scope));
        }
        return lists;
    }

    /**
     * The live entries of {@code scopes}, as {@link #listScopes} lists them, with the store's entry bound, both read
     * as of one moment: what a render needs, so that every replica renders the same bytes for one state.
     */
    default Listing listing(List<Scope> scopes) {
        return new Listing(listScopes(scopes), maxEntryBytes(), true);
    }

    /**
     * Creates or replaces the whole entry, content and meta, and appends the new state to the journal. Refuses what
     * {@link EntryRules#check} refuses ({@link Invalid}, {@link TooLarge}) and, under {@link PutOptions#ifVersion}, a
     * stored version other than the one expected ({@link Conflict}). Hash and time on {@code entry} are ignored. A
     * refused write writes nothing.
     *
     * @return the record it appended
     */
    Change put(Entry entry, PutOptions options);

    /**
     * Writes a tombstone: the entry leaves get and list, and the journal keeps its last content. A missing entry is
     * {@link NotFound}; a failed {@link PutOptions#ifVersion} is {@link Conflict}.
     *
     * @return the record it appended
     */
    Change forget(Scope scope, String name, PutOptions options);

    /**
     * The live entries of {@code scopes} that {@link Match} the query, listed by scope in the order given, then by
     * name; every scope of the store, in byte order, when {@code scopes} is empty. At most {@code limit} entries
     * when it is positive. A query holding NUL is {@link Invalid}.
     */
    List<Entry> search(List<Scope> scopes, String query, int limit);

    /**
     * Up to {@code limit} records with {@code seq} greater than {@code after}, in order; 0 reads from the
     * beginning. A reader resumes with the last seq it saw.
     */
    List<Change> journal(long after, int limit);

    /** The content size {@link #put} refuses to exceed, in bytes. */
    int maxEntryBytes();
}
