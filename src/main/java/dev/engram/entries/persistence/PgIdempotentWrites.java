package dev.engram.entries.persistence;

import static dev.engram.entries.persistence.SessionCalls.args;

import dev.engram.entries.Change;
import dev.engram.entries.Entry;
import dev.engram.entries.Landed;
import dev.engram.entries.PutOptions;
import dev.engram.entries.Replay;
import dev.engram.entries.Replayed;
import dev.engram.entries.Written;
import dev.engram.journal.persistence.JournalEntity;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.KeyReused;
import dev.engram.kernel.Scope;
import dev.engram.persistence.StoreUnavailable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes under an idempotency key: each is one call of {@code engram_put_once} or {@code engram_forget_once}
 * (migration V5), which records the key in the transaction of the write, or answers the record it was recorded
 * with; still one statement in one round trip. Writes without a key go through {@link PgWrites} and pay nothing.
 */
@ApplicationScoped
class PgIdempotentWrites {

    private static final String KEY = ":caller, :key, :fingerprint, :reply, ";
    private static final String PUT = "select o.replayed, o.reply, (o.rec).* from engram_put_once(" + KEY
            + PgWrites.PUT_ARGS + ") o";
    private static final String FORGET = "select o.replayed, o.reply, (o.rec).* from engram_forget_once(" + KEY
            + PgWrites.FORGET_ARGS + ") o";
    private static final String REPLAY = "select i.fingerprint, i.reply, j.*"
            + " from idempotency i join journal j on j.store_id = i.store_id and j.seq = i.seq"
            + " where i.store_id = :store and i.caller = :caller and i.key = :key";

    @Inject
    SessionCalls calls;

    @Inject
    PgWrites writes;

    /** As {@link PgWrites#put}, made at most once under the key of {@code options}. */
    Written put(String store, int defaultLimit, Entry entry, PutOptions options) {
        IdempotencyKey key = options.idempotency().orElseThrow();
        return written(store, calls.recordRows(PUT, keyed(key, PgWrites.putArgs(store, defaultLimit, entry, options)),
                e -> Refusals.of(e, key, entry.scope(), entry.name(), entry.size(), options), "replayed", "reply"));
    }

    /** As {@link PgWrites#forget}, made at most once under the key of {@code options}. */
    Written forget(String store, Scope scope, String name, PutOptions options) {
        IdempotencyKey key = options.idempotency().orElseThrow();
        return written(store, calls.recordRows(FORGET, keyed(key, PgWrites.forgetArgs(store, scope, name, options)),
                e -> Refusals.of(e, key, scope, name, -1, options), "replayed", "reply"));
    }

    /** What the write under {@code key} answered, read without waiting for a write in flight under it. */
    Optional<Replay> replay(String store, IdempotencyKey key) {
        List<Object[]> rows = calls.recordRows(REPLAY, args("store", store, "caller", key.caller(), "key",
                key.key()), StoreUnavailable::new, "fingerprint", "reply");
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        Object[] r = rows.get(0);
        String fingerprint = (String) r[0];
        if (!fingerprint.isEmpty() && !fingerprint.equals(key.fingerprint())) {
            throw new KeyReused(key.key());
        }
        return Optional.of(new Replay(((JournalEntity) r[2]).change(), (String) r[1]));
    }

    private static Map<String, Object> keyed(IdempotencyKey key, Map<String, Object> args) {
        args.putAll(args("caller", key.caller(), "key", key.key(), "fingerprint", key.fingerprint(), "reply",
                key.reply()));
        return args;
    }

    /** The record the call returned: {@link Landed} now, or {@link Replayed} when the key had written it before. */
    private Written written(String store, List<Object[]> rows) {
        Object[] r = rows.get(0);
        Change change = ((JournalEntity) r[2]).change();
        if (Boolean.TRUE.equals(r[0])) {
            return new Replayed(new Replay(change, (String) r[1]));
        }
        return writes.landed(store, change);
    }
}
