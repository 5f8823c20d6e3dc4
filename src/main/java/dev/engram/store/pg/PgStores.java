package dev.engram.store.pg;

import dev.engram.memory.EntryRules;
import dev.engram.memory.Scope;
import dev.engram.memory.Store;
import dev.engram.memory.StoreInfo;
import dev.engram.memory.Stores;
import dev.engram.ops.EngramConfig;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The stores kept in PostgreSQL: a row of {@code store} each, with entries and journal beside it. */
@ApplicationScoped
public class PgStores implements Stores {

    private static final String CONFIGURE = "insert into store as s (id, max_entry_bytes) values (?, ?) "
            + "on conflict (id) do update set max_entry_bytes = excluded.max_entry_bytes "
            + "returning s.seq, s.created_at, (xmax = 0) as created";

    @Inject
    PgReads reads;

    @Inject
    PgEntryQueries queries;

    @Inject
    PgWrites writes;

    @Inject
    PgIdempotentWrites idempotentWrites;

    @Inject
    PgErasure erasure;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EngramConfig config;

    /** Content bounds seen per store. PostgreSQL checks the bound again on every write, so a stale one is safe. */
    private final Map<String, Integer> limits = new ConcurrentHashMap<>();

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
            limits.put(id, row.maxEntryBytes);
            Map<Scope, Integer> counts = new HashMap<>();
            for (Object[] c : reads.counts(id)) {
                counts.put(new Scope((String) c[0]), ((Number) c[1]).intValue());
            }
            return new StoreInfo(id, row.seq, row.maxEntryBytes, counts, row.createdAt, false);
        });
    }

    @Override
    public StoreInfo configure(String id, int maxEntryBytes) {
        EntryRules.checkStoreId(id);
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(CONFIGURE)) {
            s.setString(1, id);
            s.setInt(2, maxEntryBytes);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                limits.put(id, maxEntryBytes);
                boolean created = r.getBoolean(3);
                StoreInfo now = created ? null : info(id).orElseThrow();
                return created
                        ? new StoreInfo(id, 0, maxEntryBytes, Map.of(), r.getObject(2, OffsetDateTime.class).toInstant(), true)
                        : now;
            }
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    /** The bound of store {@code id} as last seen, or as read now when not seen yet. */
    int maxEntryBytes(String id) {
        Integer known = limits.get(id);
        return known != null ? known : refreshMaxEntryBytes(id);
    }

    /** The bound of store {@code id} read from the database; the default for a store not created yet. */
    int refreshMaxEntryBytes(String id) {
        int limit = reads.store(id).map(row -> row.maxEntryBytes).orElse(config.defaultMaxEntryBytes());
        limits.put(id, limit);
        return limit;
    }

    /** Forgets what was cached about store {@code id}, as a new process would. */
    void forgetCached(String id) {
        limits.remove(id);
    }

    int defaultMaxEntryBytes() {
        return config.defaultMaxEntryBytes();
    }

    PgReads reads() {
        return reads;
    }

    PgEntryQueries queries() {
        return queries;
    }

    PgWrites writes() {
        return writes;
    }

    PgIdempotentWrites idempotentWrites() {
        return idempotentWrites;
    }

    PgErasure erasure() {
        return erasure;
    }
}
