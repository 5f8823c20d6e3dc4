package dev.engram.entries;

import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Scope;
import java.util.List;

/**
 * A store that lets another writer in: {@code race} runs just before each of the next {@code times} calls of
 * {@link #put} (once by default), as a write by another session that lands between a caller's read and its write
 * would.
 */
public final class RacingStore implements Store {

    private final Store inner;
    private final Runnable race;
    private int times;

    public RacingStore(Store inner, Runnable race) {
        this(inner, 1, race);
    }

    public RacingStore(Store inner, int times, Runnable race) {
        this.inner = inner;
        this.times = times;
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
    public synchronized Written put(Entry entry, PutOptions options) {
        if (times > 0) {
            times--;
            race.run();
        }
        return inner.put(entry, options);
    }

    @Override
    public Written forget(Scope scope, String name, PutOptions options) {
        return inner.forget(scope, name, options);
    }

    @Override
    public java.util.Optional<Replay> replay(IdempotencyKey key) {
        return inner.replay(key);
    }

    @Override
    public Change erase(Scope scope, String name, Erasure erasure) {
        return inner.erase(scope, name, erasure);
    }

    @Override
    public List<Entry> search(List<Scope> scopes, String query, int limit) {
        return inner.search(scopes, query, limit);
    }

    @Override
    public List<JournalRecord> journal(long after, int limit) {
        return inner.journal(after, limit);
    }

    @Override
    public int maxEntryBytes() {
        return inner.maxEntryBytes();
    }
}
