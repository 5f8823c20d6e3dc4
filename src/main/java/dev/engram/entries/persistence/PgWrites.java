package dev.engram.entries.persistence;

import static dev.engram.entries.persistence.SessionCalls.args;
import static dev.engram.entries.persistence.SessionCalls.instant;

import dev.engram.entries.Change;
import dev.engram.entries.Entry;
import dev.engram.entries.Erasure;
import dev.engram.entries.Hash;
import dev.engram.entries.Landed;
import dev.engram.entries.Match;
import dev.engram.entries.PutOptions;
import dev.engram.entries.Replay;
import dev.engram.entries.Replayed;
import dev.engram.entries.Written;
import dev.engram.journal.persistence.JournalAppended;
import dev.engram.journal.persistence.JournalEntity;
import dev.engram.journal.persistence.MetaJson;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.KeyReused;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Scope;
import dev.engram.persistence.StoreUnavailable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The store's writes: each is one call of a write function (migration V5) through the session, one statement in one
 * round trip in autocommit, so a store's row lock is held only while PostgreSQL runs it. {@code engram_put} and
 * {@code engram_forget} check the preconditions on {@link EntryEntity#hash} and the version under that lock; under an
 * idempotency key, {@code engram_put_once} and {@code engram_forget_once} also record the key in the transaction of
 * the write, or answer the record it was recorded with (a write without a key pays nothing for them);
 * {@code engram_erase} blanks an entry's records.
 */
@ApplicationScoped
class PgWrites {

    private static final String PUT_ARGS = ":store, :defaultLimit, :scope, :name, :content, cast(:meta as jsonb), "
            + ":hash, :search, :session, cast(:expect as text), cast(:base as text), :by";
    private static final String FORGET_ARGS = ":store, :scope, :name, :session, cast(:expect as text), "
            + "cast(:base as text), :by";
    private static final String KEY = ":caller, :key, :fingerprint, :reply, ";
    private static final String PUT = "select w.seq, w.prev, w.replaced, w.at from engram_put(" + PUT_ARGS + ") w";
    private static final String FORGET = "select f.seq, f.content, cast(f.meta as text), f.hash, f.at from "
            + "engram_forget(" + FORGET_ARGS + ") f";
    private static final String PUT_ONCE = "select o.replayed, o.reply, (o.rec).* from engram_put_once(" + KEY
            + PUT_ARGS + ") o";
    private static final String FORGET_ONCE = "select o.replayed, o.reply, (o.rec).* from engram_forget_once(" + KEY
            + FORGET_ARGS + ") o";
    private static final String REPLAY = "select i.fingerprint, i.reply, j.* from idempotency i join journal j "
            + "on j.store_id = i.store_id and j.seq = i.seq where i.store_id = :store and i.caller = :caller "
            + "and i.key = :key";
    private static final String ERASE = "select e.* from engram_erase(:store, :scope, :name, :by, :reason) e";

    private static final Logger LOG = Logger.getLogger(PgWrites.class);

    @Inject
    SessionCalls calls;

    @Inject
    Event<JournalAppended> appended;

    /**
     * Writes {@code entry}, whose rules the caller has checked, creating the store with {@code defaultLimit}; at most
     * once under the key of {@code options}, if it has one.
     */
    Written put(String store, int defaultLimit, Entry entry, PutOptions options) {
        Map<String, Object> args = forgetArgs(store, entry.scope(), entry.name(), options);
        args.putAll(args("defaultLimit", defaultLimit, "content", entry.content(), "meta", MetaJson.write(entry.meta()),
                "hash", Hash.of(entry.content()), "search", Match.text(entry)));
        if (options.idempotency().isPresent()) {
            IdempotencyKey key = options.idempotency().get();
            return once(store, calls.recordRows(PUT_ONCE, keyed(key, args),
                    e -> Refusals.of(e, key, entry.scope(), entry.name(), entry.size(), options), "replayed", "reply"));
        }
        Object[] r = calls.rows(PUT, args, e -> Refusals.of(e, entry.scope(), entry.name(), entry.size(), options))
                .get(0);
        var at = instant(r[3]);
        Entry written = new Entry(entry.scope(), entry.name(), entry.content(), entry.meta(),
                (String) args.get("hash"), at, false);
        return landed(store, new Change(((Number) r[0]).longValue(), written, (String) r[1], (String) r[2],
                options.session(), "", at).by(options.by()));
    }

    /** Writes the tombstone of {@code scope/name}; at most once under the key of {@code options}, if it has one. */
    Written forget(String store, Scope scope, String name, PutOptions options) {
        Map<String, Object> args = forgetArgs(store, scope, name, options);
        if (options.idempotency().isPresent()) {
            IdempotencyKey key = options.idempotency().get();
            return once(store, calls.recordRows(FORGET_ONCE, keyed(key, args),
                    e -> Refusals.of(e, key, scope, name, -1, options), "replayed", "reply"));
        }
        Object[] r = calls.rows(FORGET, args, e -> Refusals.of(e, scope, name, -1, options)).get(0);
        var at = instant(r[4]);
        String hash = (String) r[3];
        Entry tombstone = new Entry(scope, name, (String) r[1], MetaJson.parse((String) r[2]), hash, at, true);
        return landed(store, new Change(((Number) r[0]).longValue(), tombstone, options.base().orElse(hash), hash,
                options.session(), "", at).by(options.by()));
    }

    /** What the write under {@code key} answered, read without waiting for a write in flight under it. */
    Optional<Replay> replay(String store, IdempotencyKey key) {
        List<Object[]> rows = calls.recordRows(REPLAY, args("store", store, "caller", key.caller(), "key",
                key.key()), StoreUnavailable::new, "fingerprint", "reply");
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        String fingerprint = (String) rows.get(0)[0];
        if (!fingerprint.isEmpty() && !fingerprint.equals(key.fingerprint())) {
            throw new KeyReused(key.key());
        }
        return Optional.of(new Replay(((JournalEntity) rows.get(0)[2]).change(), (String) rows.get(0)[1]));
    }

    /** Erases {@code scope/name} of {@code store}, and returns the erasure record. */
    Change erase(String store, Scope scope, String name, Erasure erasure) {
        Change change = calls.records(ERASE, args("store", store, "scope", scope.value(), "name", name, "by",
                erasure.by(), "reason", erasure.reason()),
                e -> "EG404".equals(e.getSQLState()) ? NotFound.neverHeld(scope, name) : new StoreUnavailable(e))
                .get(0).change();
        committed(store, change.seq());
        return change;
    }

    private static Map<String, Object> forgetArgs(String store, Scope scope, String name, PutOptions options) {
        return args("store", store, "scope", scope.value(), "name", name, "session", options.session(), "expect",
                options.expect().orElse(null), "base", options.base().orElse(null), "by", options.by());
    }

    private static Map<String, Object> keyed(IdempotencyKey key, Map<String, Object> args) {
        args.putAll(args("caller", key.caller(), "key", key.key(), "fingerprint", key.fingerprint(), "reply",
                key.reply()));
        return args;
    }

    /** The record a write under a key returned: {@link Landed} now, or {@link Replayed} when it was written before. */
    private Written once(String store, List<Object[]> rows) {
        Change change = ((JournalEntity) rows.get(0)[2]).change();
        return Boolean.TRUE.equals(rows.get(0)[0]) ? new Replayed(new Replay(change, (String) rows.get(0)[1]))
                : landed(store, change);
    }

    private Landed landed(String store, Change change) {
        committed(store, change.seq());
        return new Landed(change);
    }

    /**
     * Tells the observers that a write committed. The write has landed whatever they do, so a failure of theirs (a
     * follower pool already shut down, while the service stops) is logged, and the write is still answered as landed.
     */
    private void committed(String store, long seq) {
        try {
            appended.fire(new JournalAppended(store, seq));
        } catch (RuntimeException e) {
            LOG.warnf("Write %s/%d committed, but telling its followers failed: %s", store, seq, e.toString());
        }
    }
}
