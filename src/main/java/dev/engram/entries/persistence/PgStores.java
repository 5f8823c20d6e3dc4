package dev.engram.entries.persistence;

import dev.engram.persistence.StoreUnavailable;
import dev.engram.entries.EntryRules;
import dev.engram.entries.Store;
import dev.engram.entries.StoreInfo;
import dev.engram.entries.StoreSummary;
import dev.engram.entries.Stores;
import dev.engram.ops.EngramConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The stores kept in PostgreSQL: a row of {@code store} each, with entries and journal beside it. Its {@link PgStore}
 * handles reach the parts below through the bean itself ({@code this}, never the client proxy).
 */
@ApplicationScoped
public class PgStores implements Stores {

    private static final String CONFIGURE = "insert into store as s (id, max_entry_bytes) values (:id, :max) "
            + "on conflict (id) do update set max_entry_bytes = excluded.max_entry_bytes "
            + "returning s.seq, s.created_at, (xmax = 0) as created";

    @Inject
    PgReads reads;

    @Inject
    PgEntryQueries queries;

    @Inject
    PgWrites writes;

    @Inject
    PgJournalRanges ranges;

    @Inject
    SessionCalls calls;

    @Inject
    EngramConfig config;

    /**
     * How long a bound read from the database is used before it is read again. Another replica may change it at any
     * time: a render reads it with its entries ({@link PgStore#listing}), a write has PostgreSQL check it again, and
     * the tools' texts may show one up to this old.
     */
    static final Duration BOUND_TTL = Duration.ofSeconds(1);

    /** A bound as read, and when (in {@link System#nanoTime}). */
    private record Bound(int limit, long readAt) {
    }

    /** Content bounds seen per store, each for {@link #BOUND_TTL}. */
    private final Map<String, Bound> limits = new ConcurrentHashMap<>();

    @Override
    public Store store(String id) {
        EntryRules.checkStoreId(id);
        return new PgStore(id, this);
    }

    @Override
    public boolean exists(String id) {
        EntryRules.checkStoreId(id);
        return reads.store(id).isPresent();
    }

    @Override
    public Optional<StoreInfo> info(String id) {
        EntryRules.checkStoreId(id);
        return reads.store(id).map(row -> {
            sawMaxEntryBytes(id, row.maxEntryBytes);
            return new StoreInfo(id, row.seq, row.maxEntryBytes, reads.counts(id), row.createdAt, false);
        });
    }

    @Override
    public StoreInfo configure(String id, int maxEntryBytes) {
        EntryRules.checkStoreId(id);
        Object[] r = calls.rows(CONFIGURE, SessionCalls.args("id", id, "max", maxEntryBytes), StoreUnavailable::new)
                .get(0);
        sawMaxEntryBytes(id, maxEntryBytes);
        if (Boolean.TRUE.equals(r[2])) {
            return new StoreInfo(id, 0, maxEntryBytes, Map.of(), SessionCalls.instant(r[1]), true);
        }
        return info(id).orElseThrow();
    }

    @Override
    public List<StoreSummary> page(List<String> patterns, String after, int limit) {
        if (patterns.isEmpty() || limit <= 0) {
            return List.of();
        }
        // Store IDs and grant patterns hold only a-z, 0-9, '-' and '*': no LIKE wildcard of their own to escape.
        String[] like = patterns.stream().map(p -> p.replace('*', '%')).toArray(String[]::new);
        return queries.stores(like, after == null ? "" : after, limit);
    }

    /** The bound of store {@code id} as seen within {@link #BOUND_TTL}, or as read now. */
    int maxEntryBytes(String id) {
        Bound known = limits.get(id);
        return known != null && System.nanoTime() - known.readAt() < BOUND_TTL.toNanos() ? known.limit()
                : refreshMaxEntryBytes(id);
    }

    /**
     * The bound of store {@code id} as this replica last read it, however long ago, or {@link Integer#MAX_VALUE}
     * when it never did: a check of a write before PostgreSQL's own.
     */
    int lastMaxEntryBytes(String id) {
        Bound known = limits.get(id);
        return known != null ? known.limit() : Integer.MAX_VALUE;
    }

    /** The bound of store {@code id} read from the database; the default for a store not created yet. */
    int refreshMaxEntryBytes(String id) {
        Optional<StoreEntity> row = reads.store(id);
        row.ifPresentOrElse(r -> sawMaxEntryBytes(id, r.maxEntryBytes), () -> limits.remove(id));
        return row.map(r -> r.maxEntryBytes).orElse(config.defaultMaxEntryBytes());
    }

    /** Notes the bound of store {@code id} as read from the database just now. */
    void sawMaxEntryBytes(String id, int limit) {
        limits.put(id, new Bound(limit, System.nanoTime()));
    }

    /** Forgets what was cached about store {@code id}, as a new process would. */
    void forgetCached(String id) {
        limits.remove(id);
    }
}
