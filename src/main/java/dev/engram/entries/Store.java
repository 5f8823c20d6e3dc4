package dev.engram.entries;

import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Paged;
import dev.engram.kernel.Scope;
import dev.engram.memories.rank.Bm25;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
     * A page of {@link #list}: up to {@code limit} live entries of the scope whose names sort after {@code after}
     * (names are ASCII, so byte order is String order; "" starts at the first). A reader resumes with the last name
     * it saw.
     */
    default List<Entry> list(Scope scope, String after, int limit) {
        return list(scope).stream().filter(e -> e.name().compareTo(after) > 0).limit(limit).toList();
    }

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
     * The store's {@link EntriesStamp} now, one read cheaper than a {@link #listing}; empty when the store does not
     * exist, or cannot tell (then nothing rendered of it is kept). A store that tells it also puts it on its listings.
     */
    default Optional<EntriesStamp> stamp() {
        return Optional.empty();
    }

    /**
     * Creates or replaces the whole entry, content and meta, and appends the new state to the journal. Refuses what
     * {@link EntryRules#check} refuses ({@link Invalid}, {@link TooLarge}) and, under {@link PutOptions#ifVersion}, a
     * stored version other than the one expected ({@link Conflict}). Hash and time on {@code entry} are ignored. A
     * refused write writes nothing, and records no idempotency key.
     *
     * <p>Under {@link PutOptions#idempotent}, a key already used by the same caller is answered before anything
     * else is checked: {@link Replayed}, writing nothing, when it came with the same request; {@link KeyReused}
     * when with another. Otherwise the key is recorded with the write, atomically, so that of concurrent writes
     * under one key exactly one writes and the others replay it.
     *
     * @return {@link Landed} with the record it appended, or {@link Replayed}
     */
    Written put(Entry entry, PutOptions options);

    /**
     * Writes a tombstone: the entry leaves get and list, and the journal keeps its last content. A missing entry is
     * {@link NotFound}; a failed {@link PutOptions#ifVersion} is {@link Conflict}; an idempotency key as for
     * {@link #put}.
     *
     * @return {@link Landed} with the record it appended, or {@link Replayed}
     */
    Written forget(Scope scope, String name, PutOptions options);

    /**
     * What the write under {@code key} (its caller and key) answered, when a write was made under it; empty when none
     * was, or the key has expired. {@link KeyReused} when the key was used with another fingerprint.
     */
    Optional<Replay> replay(IdempotencyKey key);

    /**
     * Erases {@code scope/name}, the answer to a deletion request: removes the live entry if there is one, blanks the
     * content and meta of every journal record of it (each keeps its seq, hashes and chain, and is marked with the
     * erasure's seq), and appends an erasure record carrying {@code erasure}, so that journal readers see it. The
     * only change to records already written. When there is nothing left to erase (no live entry, every record
     * blank) it appends nothing and answers the last erasure record. {@link NotFound} when the journal never held
     * the entry.
     *
     * @return the erasure record
     */
    Change erase(Scope scope, String name, Erasure erasure);

    /**
     * The live entries of {@code scopes} that {@link Match} the query, listed by scope in the order given, then by
     * name; every scope of the store, in byte order, when {@code scopes} is empty. At most {@code limit} entries
     * when it is positive. A query holding NUL, or over {@link Match#MAX_QUERY_CHARS} characters or
     * {@link Match#MAX_QUERY_WORDS} words, is {@link Invalid} ({@link Match#checkQuery}).
     */
    List<Entry> search(List<Scope> scopes, String query, int limit);

    /**
     * As {@link #search}, the hits ending before the entry whose content would take theirs over {@code maxBytes}
     * (the first is always in it; {@code more} then, and only then). A store may read no more than the page and the
     * hit after it.
     */
    default Paged<Entry> searchPage(List<Scope> scopes, String query, int limit, long maxBytes) {
        Paged<Entry> page = searchPage(scopes, query, SearchOrder.NAME, 0, limit, maxBytes);
        return new Paged<>(page.items(), page.more() && page.items().size() < limit);
    }

    /**
     * A page of the entries {@link #search} finds, in {@code order}: from the hit at {@code offset} (0 is the first),
     * up to {@code limit} (at least 1) of them, ending before the hit whose content would take theirs over
     * {@code maxBytes} (the first is always in it); {@code more} when hits follow the page, whether it ended at the
     * limit or at the bound. By {@link SearchOrder#RELEVANCE} every hit is ranked before the page is cut, so a search
     * matching more than {@link SearchOrder#MAX_RANKED} entries is {@link Invalid} ({@link SearchOrder#tooBroad});
     * a query without a term to rank by (stop words, punctuation, nothing) lists its hits by name. The query is
     * checked as {@link #search} checks it.
     */
    default Paged<Entry> searchPage(List<Scope> scopes, String query, SearchOrder order, int offset, int limit,
            long maxBytes) {
        Match.checkQuery(query);
        List<Entry> hits;
        if (order == SearchOrder.RELEVANCE && new Bm25(query).hasTerms()) {
            hits = byRelevance(search(scopes, query, SearchOrder.MAX_RANKED + 1), query);
        } else {
            long end = (long) offset + limit + 1;
            hits = search(scopes, query, end > Integer.MAX_VALUE ? 0 : (int) end);
        }
        return Paged.of(offset >= hits.size() ? List.of() : hits.subList(offset, hits.size()), limit, maxBytes,
                Entry::size);
    }

    /** {@code hits} best first for {@code query} ({@link SearchOrder#RELEVANCE}), equal scores in the order given. */
    private static List<Entry> byRelevance(List<Entry> hits, String query) {
        if (hits.size() > SearchOrder.MAX_RANKED) {
            throw SearchOrder.tooBroad();
        }
        Bm25 bm25 = new Bm25(query);
        hits.forEach(e -> bm25.add(Match.text(e)));
        return Arrays.stream(bm25.best()).mapToObj(hits::get).toList();
    }

    /**
     * Up to {@code limit} records with {@code seq} greater than {@code after}, in order; 0 reads from the
     * beginning. A reader resumes with the last seq it saw.
     */
    List<JournalRecord> journal(long after, int limit);

    /**
     * The page of records after {@code after}: up to {@code limit}, ending before the record that would take their
     * {@link Change#bytes} over {@code maxBytes} (the first record is always in it). A store may read no more than
     * the page and the record after it.
     */
    default Paged<JournalRecord> journalPage(long after, int limit, long maxBytes) {
        return Paged.of(journal(after, limit + 1), limit, maxBytes, JournalRecord::bytes);
    }

    /**
     * The records {@code filter} picks with seq above {@code after} and below {@code before} (both excluded), newest
     * first when {@code newestFirst}, else oldest first: up to {@code limit}, ending before the record that would take
     * their {@link JournalRecord#bytes} over {@code maxBytes} (the first is always in it); {@code more} when records of
     * the range follow the page. Every record, or one entry's, a store reads over an index, no more than the page and
     * the record after it; a scope's records and the lost updates it picks out of the range, which a caller keeps
     * short. This default reads the whole journal.
     */
    default Paged<JournalRecord> journalRange(JournalFilter filter, long after, long before, boolean newestFirst,
            int limit, long maxBytes) {
        List<JournalRecord> picked = new ArrayList<>(journal(after, 0).stream()
                .filter(r -> r.seq() < before && filter.picks(r)).toList());
        if (newestFirst) {
            Collections.reverse(picked);
        }
        return Paged.of(picked, limit, maxBytes, JournalRecord::bytes);
    }

    /**
     * For each of {@code changes}, its entry's record just before it (the version it replaced, when it replaced one),
     * by the change's seq; a change that is its entry's first record has none. This default reads one entry's
     * records at a time.
     */
    default Map<Long, Change> previous(Collection<Change> changes) {
        Map<Long, Change> previous = new HashMap<>();
        for (Change c : changes) {
            journalRange(JournalFilter.entry(c.entry().scope(), c.entry().name()), 0, c.seq(), true, 1,
                    Long.MAX_VALUE).items().stream().findFirst().ifPresent(r -> previous.put(c.seq(), (Change) r));
        }
        return previous;
    }

    /**
     * The page of {@code scope}'s live entries named after {@code after}, by name: up to {@code limit}, ending before
     * the entry whose content would take their {@link Entry#size} over {@code maxBytes} (the first is always in it).
     * A store may read no more than the page and the entry after it.
     */
    default Paged<Entry> listPage(Scope scope, String after, int limit, long maxBytes) {
        return Paged.of(list(scope, after, limit + 1), limit, maxBytes, Entry::size);
    }

    /** The content size {@link #put} refuses to exceed, in bytes. */
    int maxEntryBytes();
}
