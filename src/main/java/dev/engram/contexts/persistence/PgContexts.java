package dev.engram.contexts.persistence;

import dev.engram.journal.persistence.JournalAppended;
import dev.engram.journal.persistence.JournalNotes;
import dev.engram.journal.persistence.JournalWriter;
import dev.engram.persistence.KeySeen;
import dev.engram.persistence.Sql;
import dev.engram.persistence.StoreUnavailable;
import dev.engram.contexts.ContextChange;
import dev.engram.contexts.ContextConfig;
import dev.engram.contexts.ContextOutline;
import dev.engram.contexts.ContextRules;
import dev.engram.contexts.ContextStore;
import dev.engram.contexts.ContextWrite;
import dev.engram.contexts.Step;
import dev.engram.contexts.cache.CachedResult;
import dev.engram.contexts.cache.ListedResult;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Paged;
import dev.engram.ops.EngramConfig;
import dev.engram.contexts.persistence.ContextRecords.StoredState;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
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
import java.util.Set;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The contexts of every store, in PostgreSQL (migrations V11, V12). Every change runs in one transaction that first
 * reads the context's row for update, then its steps, changes it, and writes its row and only the steps that
 * changed with the journal record in one statement, which takes the store's next seq (its row lock, which every
 * write of the store takes) last, so the lock is held for that statement and the commit; a change that creates a
 * context takes the store's lock first ({@link #deadlockRetried}). A refused change rolls back whole, seq included.
 * A change under an {@link IdempotencyKey} ({@link Once}) first takes the key's lock ({@code engram_key_seen},
 * migration V5, as entries and memory saves do, so the key's lock is always taken before the context's and the
 * store's): a key seen before is {@link ContextWrite.Replayed} with nothing written; otherwise the key is recorded
 * with the change's seq and the answer to replay, in the change's transaction.
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
        return sql().connected(tx -> read(tx, store, id)).map(Loaded::held)
                .orElseThrow(() -> NotFound.context(id));
    }

    @Override
    public ContextConfig.Memory memory(String store, String id) {
        ContextRules.checkStore(store);
        return sql().first("select config->'memory' from context where store_id = ? and id = ?",
                r -> ContextRecords.memory(r.getString(1)), store, id).orElse(ContextConfig.Memory.NONE);
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
        Changed<T> changed = deadlockRetried(() -> changeOnce(store, id, readSteps, once, edit));
        if (changed.seq() == 0) {
            return changed.write();
        }
        try {
            appended.fire(new JournalAppended(store, changed.seq()));
        } catch (RuntimeException e) {
            LOG.warnf("Context change %s/%d committed, but telling its followers failed: %s", store, changed.seq(),
                    e.toString());
        }
        return changed.write();
    }

    /**
     * A change of a context that exists locks its row first and the store's row last, in the statement that writes
     * (the journal's append bumps the store's seq), so the store's other writers wait for that statement and the
     * commit only, not for the edit and its round trips. A change that creates a context takes the store's lock
     * first, as there is no row to lock yet; if another change created the row meanwhile, the two orders can meet
     * in a deadlock, which PostgreSQL breaks by failing one of them: that one, rolled back whole, is made again.
     */
    private static <T> T deadlockRetried(Supplier<T> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                return change.get();
            } catch (StoreUnavailable e) {
                if (attempt == 3 || !e.deadlocked()) {
                    throw e;
                }
                LOG.debugf("A context change met another in a deadlock and is made again (attempt %d)", attempt + 1);
            }
        }
    }

    private <T> Changed<T> changeOnce(String store, String id, boolean readSteps, Optional<Once<T>> once,
            Edit<T> edit) {
        return sql().transaction(tx -> {
            Savepoint unseen = null;
            if (once.isPresent()) {
                Optional<String> first = KeySeen.lock(tx, store, once.get().key()).map(KeySeen::reply);
                if (first.isPresent()) {
                    tx.rollbackOnly();
                    return new Changed<>(new ContextWrite.Replayed<>(first.get()), 0);
                }
                unseen = tx.connection().setSavepoint();
            }
            // The seq the change's record takes when the store's lock was taken first (0: the write takes it).
            long seq = 0;
            Head head = lockContext(tx, store, id);
            if (head == null) {
                Locked locked = lockAndRead(tx, store, id);
                seq = locked.seq();
                head = locked.head();
            }
            Optional<Loaded> loaded = head == null ? Optional.empty()
                    : Optional.of(loaded(tx, store, id, head, readSteps));
            Edited<T> done = edit.apply(loaded.map(Loaded::held), new PgToolResultCache(tx, store, id));
            if (done.kind() == null) {
                if (once.isPresent()) {
                    tx.connection().rollback(unseen);
                    record(tx, store, once.get(), 0, done.answer());
                } else {
                    tx.rollbackOnly();
                }
                return new Changed<>(new ContextWrite.Landed<>(done.answer()), 0);
            }
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("id", id);
            record.putAll(done.record());
            ContextRules.checkRecord(record);
            String json = ContextNoteJson.of(record);
            if (done.after() == null) {
                tx.update("delete from context where store_id = ? and id = ?", store, id);
                seq = announced(JournalNotes.append(tx, store, done.kind(), id, json, Instant.now()), seq, store, id);
            } else {
                seq = write(tx, store, id, done.after(), loaded, seq, done.kind(), json, once.isEmpty());
            }
            if (once.isPresent()) {
                record(tx, store, once.get(), seq, done.answer());
            }
            return new Changed<>(new ContextWrite.Landed<>(done.answer()), seq);
        });
    }

    /** The seq a change's record {@code took}, checked against the one {@code announced} (0: none was). */
    private static long announced(long took, long announced, String store, String id) {
        if (announced != 0 && took != announced) {
            throw new IllegalStateException("Context change " + store + "/" + id + " took seq " + took + " where "
                    + announced + " was announced.");
        }
        return took;
    }

    /** What a change answers, and the seq of its journal record to tell followers of (0: it appended none). */
    private record Changed<T>(ContextWrite<T> write, long seq) {
    }

    /** Records the key of {@code once} with the change's {@code seq} (0: it wrote nothing) and its answer. */
    private static <T> void record(Sql.Tx tx, String store, Once<T> once, long seq, T answer) throws SQLException {
        IdempotencyKey key = once.key();
        tx.update("insert into idempotency (store_id, caller, key, fingerprint, seq, reply) values (?, ?, ?, ?, ?, ?)",
                store, key.caller(), key.key(), key.fingerprint(), seq, once.reply().apply(answer));
    }

    @Override
    public <T> void answered(String store, Once<T> once, T answer) {
        ContextRules.checkStore(store);
        IdempotencyKey key = once.key();
        sql().connected(tx -> tx.update("update idempotency set reply = ? where store_id = ? and caller = ? "
                + "and key = ? and fingerprint = ?", once.reply().apply(answer), store, key.caller(), key.key(),
                key.fingerprint()));
    }

    @Override
    public Optional<CachedResult> toolResult(String store, String id, String hash) {
        ContextRules.checkStore(store);
        return sql().connected(tx -> {
            if (tx.first("select 1 from context where store_id = ? and id = ?", r -> 1, store, id).isEmpty()) {
                throw NotFound.context(id);
            }
            return new PgToolResultCache(tx, store, id).get(hash);
        });
    }

    @Override
    public Paged<ContextOutline> list(String store, String after, int limit) {
        ContextRules.checkStore(store);
        return reads().list(store, after, limit);
    }

    @Override
    public ContextOutline outline(String store, String id) {
        ContextRules.checkStore(store);
        return reads().outline(store, id);
    }

    @Override
    public List<Step> steps(String store, String id, int from, int limit) {
        ContextRules.checkStore(store);
        return reads().steps(store, id, from, limit);
    }

    @Override
    public Paged<ContextChange> changes(String store, String id, Set<String> kinds, long before, int limit) {
        ContextRules.checkStore(store);
        return reads().changes(store, id, kinds, before, limit);
    }

    @Override
    public Paged<ListedResult> toolResults(String store, String id, String after, int limit) {
        ContextRules.checkStore(store);
        return reads().toolResults(store, id, after, limit);
    }

    private Sql sql() {
        return new Sql(dataSource);
    }

    private ContextReads reads() {
        return new ContextReads(sql());
    }

    /** A context as read, and the steps its rows hold (none for a state written before steps were rows). */
    private record Loaded(Held held, List<Step> rows, boolean standIns) {
    }

    /**
     * Writes {@code held} and the journal record ({@code kind}, {@code record}) at {@code seq}: the context's row,
     * and of its steps only those after the longest prefix it shares with {@code before}'s rows (the same step
     * objects, or equal ones). An append so inserts only the appended steps, in one statement with the context's
     * row and the record, as the store's row lock is held until the commit and each round trip under it counts.
     */
    private long write(Sql.Tx tx, String store, String id, Held held, Optional<Loaded> before, long seq,
            String kind, String record, boolean last) throws SQLException {
        List<Step> steps = held.state().steps();
        ContextRules.checkSteps(id, steps.size());
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        boolean configured = before.isEmpty() || !before.get().held().config().equals(held.config());
        String config = configured ? ContextRecords.json(held.config()) : null;
        String state = ContextRecords.stateWithoutSteps(held.state());
        List<Step> rows = before.map(Loaded::rows).orElse(List.of());
        // An append's steps begin with the stand-ins it was given (append() checked it): none of them is written.
        boolean appended = before.isPresent() && before.get().standIns() && steps.size() >= rows.size()
                && (rows.isEmpty() || steps.get(rows.size() - 1) == UNREAD);
        int kept = appended ? rows.size() : keptPrefix(rows, steps);
        if (before.isEmpty()) {
            tx.update("insert into context (store_id, id, config, state, steps, created_at, updated_at) "
                    + "values (?, ?, ?::jsonb, ?, ?, ?, ?)", store, id, config, state, steps.size(), now, now);
        } else if (kept < rows.size()) {
            tx.update("delete from context_step where store_id = ? and context_id = ? and idx >= ?", store, id, kept);
        }
        Integer[] indices = new Integer[steps.size() - kept];
        String[] texts = new String[indices.length];
        for (int i = 0; i < indices.length; i++) {
            indices[i] = kept + i;
            texts[i] = ContextRecords.json(steps.get(kept + i));
        }
        List<Object> args = new ArrayList<>();
        if (before.isPresent() && configured) {
            args.add(config);
        }
        if (before.isPresent()) {
            args.addAll(List.of(state, steps.size(), now, store, id));
        }
        args.addAll(List.of(store, id, indices, texts, store, kind, id, now, record, JournalWriter.current()));
        // The configuration is written only when it changed: an append leaves it as it is.
        String update = before.isEmpty() ? "" : "u as (update context set " + (configured ? "config = ?::jsonb, " : "")
                + "state = ?, steps = ?, updated_at = ? where store_id = ? and id = ?), ";
        String write = "with " + update + "n as (insert into context_step (store_id, context_id, idx, step) "
                + "select ?, ?, i, t from unnest(?::integer[], ?::text[]) as n(i, t)) " + JournalNotes.APPEND;
        long took = last ? tx.oneAndCommit(write, r -> r.getLong(1), args.toArray())
                : tx.one(write, r -> r.getLong(1), args.toArray());
        return announced(took, seq, store, id);
    }

    /**
     * How many of {@code rows} begin {@code steps} (the same step objects, or equal ones): those are not written again.
     * Over arrays, since a context holds thousands of steps and an append runs this on every one of them.
     */
    private static int keptPrefix(List<Step> rows, List<Step> steps) {
        Object[] was = rows.toArray();
        Object[] is = steps.toArray();
        int common = Math.min(was.length, is.length);
        int kept = 0;
        while (kept < common && (was[kept] == is[kept] || was[kept].equals(is[kept]))) {
            kept++;
        }
        return kept;
    }

    /** The context and the steps its rows hold, read without a lock. */
    private static Optional<Loaded> read(Sql.Tx tx, String store, String id) throws SQLException {
        Optional<Head> found = tx.first("select config::text, state, steps from context where store_id = ? "
                + "and id = ?", r -> new Head(ContextRecords.config(r.getString(1)),
                ContextRecords.storedState(r.getString(2)), r.getInt(3)), store, id);
        return found.isEmpty() ? Optional.empty() : Optional.of(loaded(tx, store, id, found.get(), true));
    }

    /** The context's row, locked for update (and only it: not the store's), or null when there is none. */
    private static Head lockContext(Sql.Tx tx, String store, String id) throws SQLException {
        return tx.first("select config::text, state, steps from context where store_id = ? and id = ? for update",
                r -> new Head(ContextRecords.config(r.getString(1)), ContextRecords.storedState(r.getString(2)),
                        r.getInt(3)), store, id).orElse(null);
    }

    /**
     * Under the store's lock, the seq the change's record takes and the context as read for update, in one round
     * trip ({@code engram_context_head}, R__context_writes.sql): the lock is held to the commit, and every
     * statement sent under it makes the store's other writers wait.
     */
    private Locked lockAndRead(Sql.Tx tx, String store, String id) throws SQLException {
        return tx.one("select h_seq, h_config, h_state, h_steps from engram_context_head(?, ?, ?)",
                r -> new Locked(r.getLong(1), r.getString(2) == null ? null : new Head(
                        ContextRecords.config(r.getString(2)), ContextRecords.storedState(r.getString(3)),
                        r.getInt(4))), store, id, config.defaultMaxEntryBytes());
    }

    /**
     * The context of {@code head} with the steps its rows hold; with {@code readSteps} false, as many
     * {@link #UNREAD} stand-ins as it has steps (unless its state predates V12 and holds them).
     */
    private static Loaded loaded(Sql.Tx tx, String store, String id, Head head, boolean readSteps)
            throws SQLException {
        if (!readSteps && head.stored().steps().isEmpty()) {
            List<Step> unread = Collections.nCopies(head.count(), UNREAD);
            return new Loaded(new Held(head.config(), head.stored().with(unread)), unread, true);
        }
        List<Step> rows = tx.list("select step from context_step where store_id = ? and context_id = ? order by idx",
                r -> ContextRecords.step(r.getString(1)), store, id);
        List<Step> steps = rows.isEmpty() ? head.stored().steps() : rows;
        return new Loaded(new Held(head.config(), head.stored().with(steps)), rows, false);
    }

    /** The seq a change's record takes, and the context's row as read under the store's lock (null: none). */
    private record Locked(long seq, Head head) {
    }

    /** A context's row: its config, its state as stored, and how many steps it has. */
    private record Head(ContextConfig config, StoredState stored, int count) {
    }
}
