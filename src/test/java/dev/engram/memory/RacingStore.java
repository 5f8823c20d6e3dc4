package dev.engram.memory;

import java.util.List;

/**
 * A store that lets another writer in: {@code race} runs once, just before the next {@link #put}, as a write by
 * another session that lands between a caller's read and its write would.
 */
public final class RacingStore implements Store {

    private final Store inner;
    private Runnable race;

    public RacingStore(Store inner, Runnable race) {
        this.inner = inner;
        this.race = race;
    }

    @Override
    public String id() {
        return inner.id();
    }

    @Override
    public Entry get(Scope scope, String name) {
        return inner.get(scope, name);
    }

    @Override
    public List<Entry> list(Scope scope) {
        return inner.list(scope);
    }

    @Override
    public Change put(Entry entry, PutOptions options) {
        Runnable now = race;
        race = null;
        if (now != null) {
            now.run();
        }
        return inner.put(entry, options);
    }

    @Override
    public Change forget(Scope scope, String name, PutOptions options) {
        return inner.forget(scope, name, options);
    }

    @Override
    public List<Entry> search(List<Scope> scopes, String query, int limit) {
        return inner.search(scopes, query, limit);
    }

    @Override
    public List<Change> journal(long after, int limit) {
        return inner.journal(after, limit);
    }

    @Override
    public int maxEntryBytes() {
        return inner.maxEntryBytes();
    }
}
