package dev.engram.contexts.persistence;

import dev.engram.journal.persistence.JournalAppended;
import dev.engram.journal.persistence.JournalNotes;
import dev.engram.entries.persistence.KeySeen;
import dev.engram.persistence.StoreUnavailable;
import dev.engram.contexts.ContextConfig;
import dev.engram.contexts.ContextRules;
import dev.engram.contexts.ContextStore;
import dev.engram.contexts.ContextWrite;
import dev.engram.contexts.ContextState;
import dev.engram.contexts.Step;
import dev.engram.contexts.cache.CachedResult;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.KeyReused;
import dev.engram.kernel.NotFound;
import dev.engram.ops.EngramConfig;
import dev.engram.contexts.persistence.ContextRecords.StoredState;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The contexts of every store, in PostgreSQL (migrations V11, V12). Every change runs in one transaction that first
 * takes the store's next seq (its row lock, which every write of the store takes), then reads the context's row for
 * update and its steps, changes it, writes its row and only the steps that changed, and appends the journal record;
 * a refused change rolls back whole, seq included. A change under an {@link IdempotencyKey} ({@link Once}) first takes
 * the key's lock ({@code engram_key_seen}, migration V5, as entries and memory saves do, so the locks are always
 * taken key first, store second): a key seen before is {@link ContextWrite.Replayed} with nothing written;
 * otherwise the key is recorded with the change's seq and the answer to replay, in the change's transaction.
 */
@ApplicationScoped
public class PgContexts implements ContextStore {

    private static final Logger LOG = Logger.getLogger(PgContexts.class);

    /** Stands for a step an append did not read. */
    private static final Step UNREAD = Step.thought("(a step not read)");

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EngramConfig config;

    @Inject
    Event<JournalAppended> appended;

    @Override
    public Held get(String store, String id) {
        ContextRules.checkStore(store);
        try (Connection c = dataSource.getConnection()) {
            return read(c, store, id, false, true).map(Loaded::held).orElseThrow(() -> NotFound.context(id));
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    @Override
    public ContextConfig.Memory memory(String store, String id) {
        ContextRules.checkStore(store);
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

    @Override
    public <T> ContextWrite<T> change(String store, String id, Optional<Once<T>> once, Edit<T> edit) {
        return change(store, id, true, once, edit);
    }

    /**
     * The steps the edit is given are as many stand-ins, which it must keep, first and unchanged, and never read: the
     * cost of an append so does not grow with the context. A context whose state predates V12 is read whole.
     */
    @Override
    public <T> ContextWrite<T> append(String store, String id, Optional<Once<T>> once, Edit<T> edit) {
        return change(store, id, false, once, (current, cache) -> {
            Edited<T> done = edit.apply(current, cache);
            if (current.isPresent() && done.after() != null) {
                List<Step> before = current.get().state().steps();
                List<Step> after = done.after().state().steps();
                ContextRules.checkAppended(before, after);
                if (after.subList(before.size(), after.size()).stream().anyMatch(s -> s == UNREAD)) {
                    throw new IllegalStateException("An append changed the steps it was given; use change()");
                }
            }
            return done;
        });
    }

    /**
     * The change: under a key, the key's lock and its first answer ({@link ContextWrite.Replayed}) or a savepoint, so
     * that a change that changes nothing still records its key (with seq 0, no record) and takes no seq.
     */
    private <T> ContextWrite<T> change(String store, String id, boolean readSteps, Optional<Once<T>> once,
            Edit<T> edit) {
        ContextRules.checkStore(store);
        long seq;
        Edited<T> done;
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                Savepoint unseen = null;
                if (once.isPresent()) {
                    Optional<String> first = KeySeen.lock(c, store, once.get().key()).map(KeySeen::reply);
                    if (first.isPresent()) {
                        c.rollback();
                        return new ContextWrite.Replayed<>(first.get());
                    }
                    unseen = c.setSavepoint();
                }
                seq = JournalNotes.nextSeq(c, store, config.defaultMaxEntryBytes());
                Optional<Loaded> loaded = read(c, store, id, true, readSteps);
                Optional<Held> current = loaded.map(Loaded::held);
                done = edit.apply(current, new PgToolResultCache(c, store, id));
                if (done.kind() == null) {
                    if (once.isPresent()) {
                        c.rollback(unseen);
                        record(c, store, once.get(), 0, done.answer());
                        c.commit();
                    } else {
                        c.rollback();
                    }
                    return new ContextWrite.Landed<>(done.answer());
                }
                Map<String, Object> record = new LinkedHashMap<>();
                record.put("id", id);
                record.putAll(done.record());
                String json = ContextNoteJson.of(record);
                if (json.contains("\\u0000") || ContextNoteJson.observationHoldsNul(record)) {
                    throw ContextRules.recordNul();
                }
                if (done.after() == null) {
                    exec(c, "delete from context where store_id = ? and id = ?", store, id);
                    JournalNotes.append(c, store, seq, done.kind(), id, json, Instant.now());
                } else {
                    write(c, store, id, done.after(), loaded, seq, done.kind(), json);
                }
                if (once.isPresent()) {
                    record(c, store, once.get(), seq, done.answer());
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            if ("EG422".equals(e.getSQLState()) && once.isPresent()) {
                throw new KeyReused(once.get().key().key());
            }
            throw new StoreUnavailable(e);
        }
        try {
            appended.fire(new JournalAppended(store, seq));
        } catch (RuntimeException e) {
            LOG.warnf("Context change %s/%d committed, but telling its followers failed: %s", store, seq,
                    e.toString());
        }
        return new ContextWrite.Landed<>(done.answer());
    }

    /** Records the key of {@code once} with the change's {@code seq} (0: it wrote nothing) and its answer. */
    private static <T> void record(Connection c, String store, Once<T> once, long seq, T answer) throws SQLException {
        IdempotencyKey key = once.key();
        exec(c, "insert into idempotency (store_id, caller, key, fingerprint, seq, reply) values (?, ?, ?, ?, ?, ?)",
                store, key.caller(), key.key(), key.fingerprint(), seq, once.reply().apply(answer));
    }

    @Override
    public <T> void answered(String store, Once<T> once, T answer) {
        ContextRules.checkStore(store);
        IdempotencyKey key = once.key();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            exec(c, "update idempotency set reply = ? where store_id = ? and caller = ? and key = ? "
                    + "and fingerprint = ?", once.reply().apply(answer), store, key.caller(), key.key(),
                    key.fingerprint());
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    @Override
    public Optional<CachedResult> toolResult(String store, String id, String hash) {
        ContextRules.checkStore(store);
        try (Connection c = dataSource.getConnection()) {
            if (!exists(c, store, id)) {
                throw NotFound.context(id);
            }
            return new PgToolResultCache(c, store, id).get(hash);
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    /** A context as read, and the steps its rows hold (none for a state written before steps were rows). */
    private record Loaded(Held held, List<Step> rows) {
    }

    /**
     * Writes {@code held} and the journal record ({@code kind}, {@code record}) at {@code seq}: the context's row,
     * and of its steps only those after the longest prefix it shares with {@code before}'s rows (the same step
     * objects, or equal ones). An append so inserts only the appended steps, in one statement with the context's
     * row and the record, as the store's row lock is held until the commit and each round trip under it counts.
     */
    private void write(Connection c, String store, String id, Held held, Optional<Loaded> before, long seq,
            String kind, String record) throws SQLException {
        List<Step> steps = held.state().steps();
        ContextRules.checkSteps(id, steps.size());
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        String config = ContextRecords.json(held.config());
        String state = ContextRecords.stateWithoutSteps(held.state());
        List<Step> rows = before.map(Loaded::rows).orElse(List.of());
        int kept = 0;
        int common = Math.min(rows.size(), steps.size());
        while (kept < common && (rows.get(kept) == steps.get(kept) || rows.get(kept).equals(steps.get(kept)))) {
            kept++;
        }
        if (before.isEmpty()) {
            exec(c, "insert into context (store_id, id, config, state, steps, created_at, updated_at) "
                    + "values (?, ?, ?::jsonb, ?, ?, ?, ?)", store, id, config, state, steps.size(), now, now);
        } else if (kept < rows.size()) {
            exec(c, "delete from context_step where store_id = ? and context_id = ? and idx >= ?", store, id, kept);
        }
        Integer[] indices = new Integer[steps.size() - kept];
        String[] texts = new String[indices.length];
        for (int i = 0; i < indices.length; i++) {
            indices[i] = kept + i;
            texts[i] = ContextRecords.json(steps.get(kept + i));
        }
        String update = before.isEmpty() ? "" : "u as (update context set config = ?::jsonb, state = ?, steps = ?, "
                + "updated_at = ? where store_id = ? and id = ?), ";
        try (PreparedStatement s = c.prepareStatement("with " + update + "n as (insert into context_step "
                + "(store_id, context_id, idx, step) select ?, ?, i, t from unnest(?::integer[], ?::text[]) as n(i, t)) "
                + JournalNotes.APPEND)) {
            int p = 1;
            if (before.isPresent()) {
                s.setString(p++, config);
                s.setString(p++, state);
                s.setInt(p++, steps.size());
                s.setObject(p++, now);
                s.setString(p++, store);
                s.setString(p++, id);
            }
            s.setString(p++, store);
            s.setString(p++, id);
            s.setArray(p++, c.createArrayOf("integer", indices));
            s.setArray(p++, c.createArrayOf("text", texts));
            s.setString(p++, store);
            s.setString(p++, kind);
            s.setString(p++, id);
            s.setObject(p++, now);
            s.setString(p, record);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                if (r.getLong(1) != seq) {
                    throw new IllegalStateException("Context change " + store + "/" + id + " took seq "
                            + r.getLong(1) + " where " + seq + " was announced.");
                }
            }
        }
    }

    private static boolean exists(Connection c, String store, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select 1 from context where store_id = ? and id = ?")) {
            s.setString(1, store);
            s.setString(2, id);
            try (ResultSet r = s.executeQuery()) {
                return r.next();
            }
        }
    }

    /**
     * The context and the steps its rows hold; with {@code readSteps} false, as many {@link #UNREAD} stand-ins as it
     * has steps (unless its state predates V12 and holds them).
     */
    private static Optional<Loaded> read(Connection c, String store, String id, boolean lock, boolean readSteps)
            throws SQLException {
        ContextConfig config;
        StoredState stored;
        int count;
        try (PreparedStatement s = c.prepareStatement("select config::text, state, steps from context "
                + "where store_id = ? and id = ?" + (lock ? " for update" : ""))) {
            s.setString(1, store);
            s.setString(2, id);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return Optional.empty();
                }
                config = ContextRecords.config(r.getString(1));
                stored = ContextRecords.storedState(r.getString(2));
                count = r.getInt(3);
            }
        }
        if (!readSteps && stored.steps().isEmpty()) {
            List<Step> unread = Collections.nCopies(count, UNREAD);
            return Optional.of(new Loaded(new Held(config, stored.with(unread)), unread));
        }
        List<Step> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("select step from context_step where store_id = ? "
                + "and context_id = ? order by idx")) {
            s.setString(1, store);
            s.setString(2, id);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    rows.add(ContextRecords.step(r.getString(1)));
                }
            }
        }
        List<Step> steps = rows.isEmpty() ? stored.steps() : rows;
        return Optional.of(new Loaded(new Held(config, stored.with(steps)), rows));
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
