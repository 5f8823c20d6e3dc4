package dev.engram.entries;

import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.KeyReused;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Scope;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The in-memory store: the reference for the contract, the store for tests, and one for memory that need not
 * outlive the process. Safe for concurrent use; every method holds the store's lock. Idempotency keys are kept
 * for {@link IdempotencyKey#DEFAULT_RETENTION}.
 */
public final class InMemoryStore implements Store {

    private final String id;
    private final int maxEntryBytes;
    private final Supplier<Instant> clock;
    private final Map<Scope, TreeMap<String, Entry>> live = new TreeMap<>();
    private final List<Change> journal = new ArrayList<>();
    /** Keys by caller and key, oldest first, so expired ones are dropped from the head. */
    private final LinkedHashMap<List<String>, Recorded> keys = new LinkedHashMap<>();
    /** The entries version ({@link EntriesStamp}): moved on by every change of a live entry. */
    private long version;

    /** A key as recorded with its write; {@code fingerprint} "" once the write was erased. */
    private record Recorded(String fingerprint, long seq, String reply, Instant at) {
    }

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
    public synchronized Written put(Entry entry, PutOptions options) {
        Optional<Replay> seen = options.idempotency().flatMap(this::replay);
        if (seen.isPresent()) {
            return new Replayed(seen.get());
        }
        Entry stored = live.getOrDefault(entry.scope(), new TreeMap<>()).get(entry.name());
        EntryRules.check(entry, maxEntryBytes, () -> stored == null ? -1 : stored.size());
        options.check(entry.scope(), entry.name(), stored);
        Instant now = clock.get();
        Entry written = entry.stored(now);
        live.computeIfAbsent(entry.scope(), s -> new TreeMap<>()).put(entry.name(), written);
        version++;
        return record(options, append(written, options.baseFor(stored), stored == null ? "" : stored.hash(),
                options, now));
    }

    @Override
    public synchronized Written forget(Scope scope, String name, PutOptions options) {
        Optional<Replay> seen = options.idempotency().flatMap(this::replay);
        if (seen.isPresent()) {
            return new Replayed(seen.get());
        }
        Entry stored = get(scope, name);
        options.check(scope, name, stored);
        Instant now = clock.get();
        live.get(scope).remove(name);
        version++;
        return record(options, append(stored.tombstone(now), options.baseFor(stored), stored.hash(), options, now));
    }

    private Change append(Entry entry, String prev, String replaced, PutOptions options, Instant at) {
        Change c = new Change(journal.size() + 1L, entry, prev, replaced, options.session(), "", at)
                .by(options.by());
        journal.add(c);
        return c;
    }

    @Override
    public synchronized Optional<Replay> replay(IdempotencyKey key) {
        Recorded r = keys.get(List.of(key.caller(), key.key()));
        if (r == null) {
            return Optional.empty();
        }
        if (!r.fingerprint().isEmpty() && !r.fingerprint().equals(key.fingerprint())) {
            throw new KeyReused(key.key());
        }
        return Optional.of(new Replay(journal.get((int) r.seq() - 1), r.reply()));
    }

    private Written record(PutOptions options, Change written) {
        options.idempotency().ifPresent(k -> {
            Instant now = clock.get();
            Instant expired = now.minus(IdempotencyKey.DEFAULT_RETENTION);
            for (Iterator<Recorded> oldest = keys.values().iterator(); oldest.hasNext(); ) {
                if (!oldest.next().at().isBefore(expired)) {
                    break;
                }
                oldest.remove();
            }
            keys.put(List.of(k.caller(), k.key()), new Recorded(k.fingerprint(), written.seq(), k.reply(), now));
        });
        return new Landed(written);
    }

    @Override
    public synchronized Change erase(Scope scope, String name, Erasure erasure) {
        List<Integer> records = new ArrayList<>();
        Change lastErasure = null;
        for (int i = 0; i < journal.size(); i++) {
            Change c = journal.get(i);
            if (c.entry().scope().equals(scope) && c.entry().name().equals(name)) {
                if (c.isErasure()) {
                    lastErasure = c;
                } else if (c.erased() == 0) {
                    records.add(i);
                }
            }
        }
        Entry stored = live.getOrDefault(scope, new TreeMap<>()).get(name);
        if (stored == null && records.isEmpty()) {
            if (lastErasure == null) {
                throw NotFound.entry(scope, name);
            }
            return lastErasure;
        }
        long seq = journal.size() + 1L;
        for (int i : records) {
            journal.set(i, journal.get(i).erasedBy(seq));
        }
        keys.replaceAll((k, r) -> journal.get((int) r.seq() - 1).erased() == seq
                ? new Recorded("", r.seq(), "", r.at()) : r);
        if (stored != null) {
            live.get(scope).remove(name);
            version++;
        }
        Change c = Change.erasure(seq, scope, name, stored == null ? "" : stored.hash(), erasure, clock.get());
        journal.add(c);
        return c;
    }

    @Override
    public synchronized List<Entry> search(List<Scope> scopes, String query, int limit) {
        Match.checkQuery(query);
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
    public synchronized List<JournalRecord> journal(long after, int limit) {
        int from = (int) Math.min(Math.max(after, 0), journal.size());
        int to = limit > 0 ? (int) Math.min(journal.size(), (long) from + limit) : journal.size();
        return List.<JournalRecord>copyOf(journal.subList(from, to));
    }

    @Override
    public synchronized Listing listing(List<Scope> scopes) {
        return new Listing(listScopes(scopes), maxEntryBytes, true, stamp());
    }

    @Override
    public synchronized Optional<EntriesStamp> stamp() {
        return Optional.of(new EntriesStamp(version, maxEntryBytes));
    }

    @Override
    public int maxEntryBytes() {
        return maxEntryBytes;
    }
}
