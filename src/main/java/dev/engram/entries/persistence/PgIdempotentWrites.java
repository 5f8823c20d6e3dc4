package dev.engram.entries.persistence;

import dev.engram.journal.persistence.JournalAppended;
import dev.engram.journal.persistence.JournalColumns;
import dev.engram.journal.persistence.MetaJson;
import dev.engram.persistence.StoreUnavailable;
import dev.engram.entries.Change;
import dev.engram.entries.Entry;
import dev.engram.entries.Hash;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.KeyReused;
import dev.engram.entries.Match;
import dev.engram.entries.PutOptions;
import dev.engram.entries.Replay;
import dev.engram.entries.Replayed;
import dev.engram.kernel.Scope;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Writes under an idempotency key: each is one call of {@code engram_put_once} or {@code engram_forget_once}
 * (migration V5), which records the key in the transaction of the write, or answers the record it was recorded
 * with; still one statement in one round trip. Writes without a key go through {@link PgWrites} and pay nothing.
 */
@ApplicationScoped
class PgIdempotentWrites {

    private static final String PUT = "select o.replayed, o.reply, " + JournalColumns.select("(o.rec).")
            + " from engram_put_once(?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?) o";
    private static final String FORGET = "select o.replayed, o.reply, " + JournalColumns.select("(o.rec).")
            + " from engram_forget_once(?, ?, ?, ?, ?, ?, ?, ?, ?, ?) o";
    private static final String REPLAY = "select i.fingerprint, i.reply, " + JournalColumns.select("j.")
            + " from idempotency i join journal j on j.store_id = i.store_id and j.seq = i.seq"
            + " where i.store_id = ? and i.caller = ? and i.key = ?";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Event<JournalAppended> appended;

    /** As {@link PgWrites#put}, made at most once under the key of {@code options}. */
    Change put(String store, int defaultLimit, Entry entry, PutOptions options) {
        IdempotencyKey key = options.idempotency().orElseThrow();
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(PUT)) {
            int p = keyParameters(s, key);
            s.setString(p++, store);
            s.setInt(p++, defaultLimit);
            s.setString(p++, entry.scope().value());
            s.setString(p++, entry.name());
            s.setString(p++, entry.content());
            s.setString(p++, MetaJson.write(entry.meta()));
            s.setString(p++, Hash.of(entry.content()));
            s.setString(p++, Match.text(entry));
            s.setString(p++, options.session());
            PgWrites.setNullable(s, p++, options.expect().orElse(null));
            PgWrites.setNullable(s, p, options.base().orElse(null));
            return written(s, store);
        } catch (SQLException e) {
            throw refusal(e, key, entry.scope(), entry.name(), entry.size(), options);
        }
    }

    /** As {@link PgWrites#forget}, made at most once under the key of {@code options}. */
    Change forget(String store, Scope scope, String name, PutOptions options) {
        IdempotencyKey key = options.idempotency().orElseThrow();
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(FORGET)) {
            int p = keyParameters(s, key);
            s.setString(p++, store);
            s.setString(p++, scope.value());
            s.setString(p++, name);
            s.setString(p++, options.session());
            PgWrites.setNullable(s, p++, options.expect().orElse(null));
            PgWrites.setNullable(s, p, options.base().orElse(null));
            return written(s, store);
        } catch (SQLException e) {
            throw refusal(e, key, scope, name, -1, options);
        }
    }

    /** What the write under {@code key} answered, read without waiting for a write in flight under it. */
    Optional<Replay> replay(String store, IdempotencyKey key) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(REPLAY)) {
            s.setString(1, store);
            s.setString(2, key.caller());
            s.setString(3, key.key());
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return Optional.empty();
                }
                String fingerprint = r.getString(1);
                if (!fingerprint.isEmpty() && !fingerprint.equals(key.fingerprint())) {
                    throw new KeyReused(key.key());
                }
                return Optional.of(new Replay(JournalColumns.change(r, 3), r.getString(2)));
            }
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }

    private static int keyParameters(PreparedStatement s, IdempotencyKey key) throws SQLException {
        s.setString(1, key.caller());
        s.setString(2, key.key());
        s.setString(3, key.fingerprint());
        s.setString(4, key.reply());
        return 5;
    }

    /** The record the call returned: written now, or {@link Replayed} when the key had written it before. */
    private Change written(PreparedStatement s, String store) throws SQLException {
        try (ResultSet r = s.executeQuery()) {
            r.next();
            Change change = JournalColumns.change(r, 3);
            if (r.getBoolean(1)) {
                throw new Replayed(new Replay(change, r.getString(2)));
            }
            appended.fire(new JournalAppended(store, change.seq()));
            return change;
        }
    }

    private static RuntimeException refusal(SQLException e, IdempotencyKey key, Scope scope, String name, int size,
            PutOptions options) {
        return "EG422".equals(e.getSQLState()) ? new KeyReused(key.key())
                : PgWrites.refusal(e, scope, name, size, options);
    }
}
