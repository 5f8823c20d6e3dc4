package dev.engram.store.pg;

import dev.engram.context.ContextConfig;
import dev.engram.context.ContextState;
import dev.engram.context.cache.CachedResult;
import dev.engram.context.cache.ToolResultCache;
import dev.engram.memory.EntryRules;
import dev.engram.memory.Invalid;
import dev.engram.memory.Limited;
import dev.engram.memory.NotFound;
import dev.engram.ops.EngramConfig;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The contexts of every store, in PostgreSQL (migration V11). Every change runs in one transaction that first takes
 * the store's next seq (its row lock, which every write of the store takes), then reads the context's row for
 * update, changes it whole and appends the journal record; a refused change rolls back whole, seq included.
 */
@ApplicationScoped
public class PgContexts {

    /** The most steps one context holds; a change that would hold more is refused. */
    public static final int MAX_STEPS = 10_000;

    private static final Logger LOG = Logger.getLogger(PgContexts.class);

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EngramConfig config;

    @Inject
    Event<JournalAppended> appended;

    /** A context as stored: its configuration and what it holds. */
    public record Held(ContextConfig config, ContextState state) {
    }

    /**
     * What an edit made: the context after it (null: deleted), the journal record's kind and members (the context's
     * id is added), and what to answer. A null kind means nothing changed: no seq is taken, no record written.
     */
    public record Edited<T>(Held after, String kind, Map<String, Object> record, T answer) {

        /** Nothing changed; answer {@code answer}. */
        public static <T> Edited<T> unchanged(T answer) {
            return new Edited<>(null, null, Map.of(), answer);
        }
    }

    /** One change of a context: from what is stored (empty when there is no such context) and its cache. */
    @FunctionalInterface
    public interface Edit<T> {
        Edited<T> apply(Optional<Held> current, ToolResultCache cache);
    }

    /** Context {@code id} of {@code store}, or {@link NotFound}. */
    public Held get(String store, String id) {
        EntryRules.checkStoreId(store);
        try (Connection c = dataSource.getConnection()) {
            return read(c, store, id, false).orElseThrow(() -> NotFound.context(id));
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    /**
     * The memory block's settings of context {@code id} of {@code store}, read alone (no lock, not the state), so that
     * a change can render the block before its transaction; {@link ContextConfig.Memory#NONE} when there is no such
     * context or it shows no block.
     */
    public ContextConfig.Memory memory(String store, String id) {
        EntryRules.checkStoreId(store);
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(
                "select config->'memory' from context where store_id = ? and id = ?")) {
            s.setString(1, store);
            s.setString(2, id);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? ContextRecords.memory(r.getString(1)) : ContextConfig.Memory.NONE;
            }
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    /** Runs {@code edit} on context {@code id} of {@code store} under the store's lock, and journals it. */
    public <T> T change(String store, String id, Edit<T> edit) {
        EntryRules.checkStoreId(store);
        long seq;
        Edited<T> done;
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                seq = nextSeq(c, store);
                Optional<Held> current = read(c, store, id, true);
                done = edit.apply(current, new PgToolResultCache(c, store, id));
                if (done.kind() == null) {
                    c.rollback();
                    return done.answer();
                }
                Map<String, Object> record = new LinkedHashMap<>();
                record.put("id", id);
                record.putAll(done.record());
                String json = ContextRecords.json(record);
                if (json.contains("\\u0000")) {
                    throw new Invalid("text-nul", "", "A text holds the character NUL, which Engram cannot keep; "
                            + "only a system prompt's cache breaks may hold it.");
                }
                if (done.after() == null) {
                    exec(c, "delete from context where store_id = ? and id = ?", store, id);
                } else {
                    write(c, store, id, done.after(), current.isEmpty());
                }
                appendNote(c, store, seq, done.kind(), id, json);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
        try {
            appended.fire(new JournalAppended(store, seq));
        } catch (RuntimeException e) {
            LOG.warnf("Context change %s/%d committed, but telling its followers failed: %s", store, seq,
                    e.toString());
        }
        return done.answer();
    }

    /** The cached tool result {@code hash} (short, full or a unique prefix) names in context {@code id}. */
    public Optional<CachedResult> toolResult(String store, String id, String hash) {
        EntryRules.checkStoreId(store);
        try (Connection c = dataSource.getConnection()) {
            if (read(c, store, id, false).isEmpty()) {
                throw NotFound.context(id);
            }
            return new PgToolResultCache(c, store, id).get(hash);
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    private void write(Connection c, String store, String id, Held held, boolean fresh) throws SQLException {
        int steps = held.state().steps().size();
        if (steps > MAX_STEPS) {
            throw new Limited(Limited.Kind.QUOTA, "context-steps", MAX_STEPS, 0, "Context " + id + " would hold "
                    + steps + " steps; it holds at most " + MAX_STEPS + ". Compact it and replace its steps "
                    + "(PUT .../steps) with fewer, or start a new context.");
        }
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        String config = ContextRecords.json(held.config());
        String state = ContextRecords.json(held.state());
        if (fresh) {
            exec(c, "insert into context (store_id, id, config, state, steps, created_at, updated_at) "
                    + "values (?, ?, ?::jsonb, ?, ?, ?, ?)", store, id, config, state, steps, now, now);
        } else {
            exec(c, "update context set config = ?::jsonb, state = ?, steps = ?, updated_at = ? "
                    + "where store_id = ? and id = ?", config, state, steps, now, store, id);
        }
    }

    private static Optional<Held> read(Connection c, String store, String id, boolean lock) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select config::text, state from context where store_id = ? "
                + "and id = ?" + (lock ? " for update" : ""))) {
            s.setString(1, store);
            s.setString(2, id);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(new Held(ContextRecords.config(r.getString(1)),
                        ContextRecords.state(r.getString(2)))) : Optional.empty();
            }
        }
    }

    private long nextSeq(Connection c, String store) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("insert into store as s (id, seq, max_entry_bytes) "
                + "values (?, 1, ?) on conflict (id) do update set seq = s.seq + 1 returning s.seq")) {
            s.setString(1, store);
            s.setInt(2, config.defaultMaxEntryBytes());
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    private static void appendNote(Connection c, String store, long seq, String kind, String key, String body)
            throws SQLException {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        exec(c, "insert into journal (store_id, seq, scope, name, content, hash, updated, at, kind, record) "
                + "values (?, ?, '', ?, '', '', ?, ?, ?, ?::jsonb)", store, seq, key, now, now, kind, body);
    }

    static int exec(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            return s.executeUpdate();
        }
    }
}
