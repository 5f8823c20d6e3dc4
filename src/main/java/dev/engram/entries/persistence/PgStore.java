package dev.engram.entries.persistence;

import dev.engram.entries.Change;
import dev.engram.entries.EntriesStamp;
import dev.engram.entries.Entry;
import dev.engram.entries.EntryRules;
import dev.engram.entries.Erasure;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.entries.Listing;
import dev.engram.entries.JournalFilter;
import dev.engram.entries.Match;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Paged;
import dev.engram.entries.PutOptions;
import dev.engram.entries.Replay;
import dev.engram.entries.Replayed;
import dev.engram.kernel.Scope;
import dev.engram.entries.SearchOrder;
import dev.engram.entries.Store;
import dev.engram.entries.Written;
import dev.engram.kernel.TooLarge;
import dev.engram.memories.rank.Bm25;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One store in PostgreSQL: a handle that holds only its ID; every call goes to the database. */
final class PgStore implements Store {

    private final String id;
    private final PgStores stores;

    PgStore(String id, PgStores stores) {
        this.id = id;
        this.stores = stores;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public Entry get(Scope scope, String name) {
        return stores.queries.get(id, scope, name).orElseThrow(() -> NotFound.entry(scope, name));
    }

    @Override
    public List<Entry> list(Scope scope) {
        return stores.reads.list(id, scope);
    }

    @Override
    public List<Entry> list(Scope scope, String after, int limit) {
        return stores.reads.page(id, scope, after, limit);
    }

    @Override
    public Map<Scope, List<Entry>> listScopes(List<Scope> scopes) {
        Map<Scope, List<Entry>> lists = new LinkedHashMap<>();
        scopes.forEach(scope -> lists.put(scope, new ArrayList<>()));
        for (Entry e : stores.reads.inScopes(id, scopes)) {
            lists.computeIfAbsent(e.scope(), s -> new ArrayList<>()).add(e);
        }
        return lists;
    }

    @Override
    public Listing listing(List<Scope> scopes) {
        Listing listing = stores.queries.listing(id, scopes, stores.config.defaultMaxEntryBytes());
        if (listing.exists()) {
            stores.sawMaxEntryBytes(id, listing.maxEntryBytes());
        }
        return listing;
    }

    @Override
    public Optional<EntriesStamp> stamp() {
        Optional<EntriesStamp> stamp = stores.queries.stamp(id);
        stamp.ifPresent(s -> stores.sawMaxEntryBytes(id, s.maxEntryBytes()));
        return stamp;
    }

    /**
     * Checks the entry's shape, and its size against the bound this replica last read, if it read one (never read
     * for it: {@code engram_put} checks the store's bound as it writes, and refuses with the same numbers), then
     * writes it.
     */
    @Override
    public Written put(Entry entry, PutOptions options) {
        try {
            EntryRules.check(entry, stores.lastMaxEntryBytes(id), () -> storedSize(entry));
        } catch (TooLarge cached) {
            // Another replica may have raised the bound since it was cached: refuse only on the current one.
            try {
                EntryRules.check(entry, stores.refreshMaxEntryBytes(id), () -> storedSize(entry));
            } catch (TooLarge lowered) {
                // A retry of a write that landed before the bound was lowered is answered, not refused.
                Optional<Replay> first = options.idempotency().flatMap(this::replay);
                if (first.isPresent()) {
                    return new Replayed(first.get());
                }
                throw lowered;
            }
        }
        return stores.writes.put(id, stores.config.defaultMaxEntryBytes(), entry, options);
    }

    private int storedSize(Entry entry) {
        return stores.queries.get(id, entry.scope(), entry.name()).map(Entry::size).orElse(-1);
    }

    @Override
    public Written forget(Scope scope, String name, PutOptions options) {
        return stores.writes.forget(id, scope, name, options);
    }

    @Override
    public Optional<Replay> replay(IdempotencyKey key) {
        return stores.writes.replay(id, key);
    }

    @Override
    public Change erase(Scope scope, String name, Erasure erasure) {
        return stores.writes.erase(id, scope, name, erasure);
    }

    @Override
    public List<Entry> search(List<Scope> scopes, String query, int limit) {
        Match.checkQuery(query);
        return stores.queries.search(id, scopes, Match.words(query), limit);
    }

    @Override
    public Paged<Entry> searchPage(List<Scope> scopes, String query, SearchOrder order, int offset, int limit,
            long maxBytes) {
        Match.checkQuery(query);
        List<String> words = Match.words(query);
        if (order == SearchOrder.RELEVANCE) {
            Bm25 bm25 = new Bm25(query);
            if (bm25.hasTerms()) {
                return stores.queries.searchByRelevance(id, scopes, words, bm25, offset, limit, maxBytes);
            }
        }
        List<Entry> found = stores.queries.search(id, scopes, words, offset, limit + 1, maxBytes);
        return Paged.of(found, limit, maxBytes, Entry::size);
    }

    @Override
    public Paged<JournalRecord> journalPage(long after, int limit, long maxBytes) {
        return Paged.of(stores.reads.journal(id, Math.max(after, 0), limit + 1, maxBytes), limit, maxBytes,
                JournalRecord::bytes);
    }

    @Override
    public Paged<JournalRecord> journalRange(JournalFilter filter, long after, long before, boolean newestFirst,
            int limit, long maxBytes) {
        if (limit <= 0 || before <= after + 1) {
            return new Paged<>(List.of(), false);
        }
        return Paged.of(stores.ranges.range(id, filter, Math.max(after, 0), before, newestFirst, limit + 1, maxBytes),
                limit, maxBytes, JournalRecord::bytes);
    }

    @Override
    public Map<Long, Change> previous(Collection<Change> changes) {
        return stores.ranges.previous(id, changes);
    }

    @Override
    public Paged<Entry> listPage(Scope scope, String after, int limit, long maxBytes) {
        return Paged.of(stores.queries.listPage(id, scope, after, limit + 1, maxBytes), limit, maxBytes,
                Entry::size);
    }

    @Override
    public List<JournalRecord> journal(long after, int limit) {
        return stores.reads.journal(id, Math.max(after, 0), limit > 0 ? limit : Integer.MAX_VALUE);
    }

    @Override
    public int maxEntryBytes() {
        return stores.maxEntryBytes(id);
    }
}
