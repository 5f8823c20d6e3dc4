package dev.engram.memory;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The in-memory store: the reference for the contract, the store for tests, and one for memory that need not
 * outlive the process. Safe for concurrent use; every method holds the store's lock.
 */
public final class InMemoryStore implements Store {

    private final String id;
    private final int maxEntryBytes;
    private final Supplier<Instant> clock;
    private final Map<Scope, TreeMap<String, Entry>> live = new TreeMap<>();
    private final List<Change> journal = new ArrayList<>();

    public InMemoryStore(String id, int maxEntryBytes, Supplier<Instant> clock) {
        EntryRules.checkStoreId(id);
        if (maxEntryBytes < 1) {
            throw new IllegalArgumentException("maxEntryBytes must be at least 1, not " + maxEntryBytes);
        }
        this.id = id;
        this.maxEntryBytes = maxEntryBytes;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public InMemoryStore(String id, int maxEntryBytes) {
        this(id, maxEntryBytes, () -> Instant.now().truncatedTo(ChronoUnit.MICROS));
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public synchronized Entry get(Scope scope, String name) {
        Entry e = live.getOrDefault(scope, new TreeMap<>()).get(name);
        if (e == null) {
            throw NotFound.entry(scope, name);
        }
        return e;
    }

    @Override
    public synchronized List<Entry> list(Scope scope) {
        return List.copyOf(live.getOrDefault(scope, new TreeMap<>()).values());
    }

    @Override
    public synchronized Change put(Entry entry, PutOptions options) {
        Entry stored = live.getOrDefault(entry.scope(), new TreeMap<>()).get(entry.name());
        EntryRules.check(entry, maxEntryBytes, () -> stored == null ? -1 : stored.size());
        options.check(entry.scope(), entry.name(), stored);
        Instant now = clock.get();
        Entry written = entry.stored(now);
        live.computeIfAbsent(entry.scope(), s -> new TreeMap<>()).put(entry.name(), written);
        return append(written, options.baseFor(stored), stored == null ? "" : stored.hash(), options.session(), now);
    }

    @Override
    public synchronized Change forget(Scope scope, String name, PutOptions options) {
        Entry stored = get(scope, name);
        options.check(scope, name, stored);
        Instant now = clock.get();
        live.get(scope).remove(name);
        return append(stored.tombstone(now), options.baseFor(stored), stored.hash(), options.session(), now);
    }

    private Change append(Entry entry, String prev, String replaced, String session, Instant at) {
        Change c = new Change(journal.size() + 1L, entry, prev, replaced, session, "", at);
        journal.add(c);
        return c;
    }

    @Override
    public synchronized List<Entry> search(List<Scope> scopes, String query, int limit) {
        Match.words(query);
        List<Entry> found = new ArrayList<>();
        for (Scope scope : scopes.isEmpty() ? List.copyOf(live.keySet()) : scopes.stream().distinct().toList()) {
            for (Entry e : live.getOrDefault(scope, new TreeMap<>()).values()) {
                if (Match.matches(e, query)) {
                    found.add(e);
                    if (limit > 0 && found.size() == limit) {
                        return found;
                    }
                }
            }
        }
        return found;
    }

    @Override
    public synchronized List<Change> journal(long after, int limit) {
        int from = (int) Math.min(Math.max(after, 0), journal.size());
        int to = limit > 0 ? (int) Math.min(journal.size(), (long) from + limit) : journal.size();
        return List.copyOf(journal.subList(from, to));
    }

    @Override
    public int maxEntryBytes() {
        return maxEntryBytes;
    }
}
