package dev.engram.entries.persistence;

import static dev.engram.entries.persistence.SessionCalls.args;
import static dev.engram.entries.persistence.SessionCalls.instant;

import dev.engram.entries.Change;
import dev.engram.entries.Entry;
import dev.engram.entries.Hash;
import dev.engram.entries.Landed;
import dev.engram.entries.Match;
import dev.engram.entries.PutOptions;
import dev.engram.entries.Written;
import dev.engram.journal.persistence.JournalAppended;
import dev.engram.journal.persistence.MetaJson;
import dev.engram.kernel.Scope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The store's writes: each is one call of {@code engram_put} or {@code engram_forget} through the session, one
 * statement in one round trip in autocommit, so a store's row lock is held only while PostgreSQL runs it. The
 * functions check the preconditions on {@link EntryEntity#hash} and the version under that lock.
 */
@ApplicationScoped
class PgWrites {

    /** The arguments of {@code engram_put} and {@code engram_put_once} after the key, bound from {@link #putArgs}. */
    static final String PUT_ARGS = ":store, :defaultLimit, :scope, :name, :content, cast(:meta as jsonb), :hash, "
            + ":search, :session, cast(:expect as text), cast(:base as text)";
    /** The arguments of {@code engram_forget} and {@code engram_forget_once}, bound from {@link #forgetArgs}. */
    static final String FORGET_ARGS = ":store, :scope, :name, :session, cast(:expect as text), cast(:base as text)";
    private static final String PUT = "select w.seq, w.prev, w.replaced, w.at from engram_put(" + PUT_ARGS + ") w";
    private static final String FORGET = "select f.seq, f.content, cast(f.meta as text), f.hash, f.at from "
            + "engram_forget(" + FORGET_ARGS + ") f";

    private static final Logger LOG = Logger.getLogger(PgWrites.class);

    @Inject
    SessionCalls calls;

    @Inject
    Event<JournalAppended> appended;

    /** Writes {@code entry}, whose rules the caller has checked, creating the store with {@code defaultLimit}. */
    Written put(String store, int defaultLimit, Entry entry, PutOptions options) {
        Map<String, Object> args = putArgs(store, defaultLimit, entry, options);
        Object[] r = calls.rows(PUT, args, e -> Refusals.of(e, entry.scope(), entry.name(), entry.size(), options))
                .get(0);
        var at = instant(r[3]);
        Entry written = new Entry(entry.scope(), entry.name(), entry.content(), entry.meta(),
                (String) args.get("hash"), at, false);
        return landed(store, new Change(((Number) r[0]).longValue(), written, (String) r[1], (String) r[2],
                options.session(), "", at));
    }

    /** Writes the tombstone of {@code scope/name}. */
    Written forget(String store, Scope scope, String name, PutOptions options) {
        Object[] r = calls.rows(FORGET, forgetArgs(store, scope, name, options),
                e -> Refusals.of(e, scope, name, -1, options)).get(0);
        var at = instant(r[4]);
        String hash = (String) r[3];
        Entry tombstone = new Entry(scope, name, (String) r[1], MetaJson.parse((String) r[2]), hash, at, true);
        return landed(store, new Change(((Number) r[0]).longValue(), tombstone, options.base().orElse(hash), hash,
                options.session(), "", at));
    }

    static Map<String, Object> forgetArgs(String store, Scope scope, String name, PutOptions options) {
        return args("store", store, "scope", scope.value(), "name", name, "session", options.session(), "expect",
                options.expect().orElse(null), "base", options.base().orElse(null));
    }

    static Map<String, Object> putArgs(String store, int defaultLimit, Entry entry, PutOptions options) {
        Map<String, Object> args = forgetArgs(store, entry.scope(), entry.name(), options);
        args.putAll(args("defaultLimit", defaultLimit, "content", entry.content(), "meta", MetaJson.write(entry.meta()),
                "hash", Hash.of(entry.content()), "search", Match.text(entry)));
        return args;
    }

    /** The change, landed: {@link #committed} told. */
    Landed landed(String store, Change change) {
        committed(store, change.seq());
        return new Landed(change);
    }

    /**
     * Tells the observers that a write committed. The write has landed whatever they do, so a failure of theirs (a
     * follower pool already shut down, while the service stops) is logged, and the write is still answered as landed.
     */
    void committed(String store, long seq) {
        try {
            appended.fire(new JournalAppended(store, seq));
        } catch (RuntimeException e) {
            LOG.warnf("Write %s/%d committed, but telling its followers failed: %s", store, seq, e.toString());
        }
    }
}
