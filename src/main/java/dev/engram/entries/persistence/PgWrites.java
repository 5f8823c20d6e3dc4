package dev.engram.entries.persistence;

import dev.engram.journal.persistence.JournalAppended;
import dev.engram.journal.persistence.MetaJson;
import dev.engram.persistence.StoreUnavailable;
import dev.engram.entries.Change;
import dev.engram.kernel.Conflict;
import dev.engram.entries.Entry;
import dev.engram.entries.Hash;
import dev.engram.kernel.Limited;
import dev.engram.entries.Match;
import dev.engram.kernel.NotFound;
import dev.engram.entries.PutOptions;
import dev.engram.kernel.Scope;
import dev.engram.kernel.TooLarge;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.OffsetDateTime;
import org.jboss.logging.Logger;
import org.postgresql.util.PSQLException;

/**
 * The store's writes: each is one call of {@code engram_put} or {@code engram_forget}, one statement in one
 * round trip on an autocommit connection, so a store's row lock is held only while PostgreSQL runs it.
 */
@ApplicationScoped
class PgWrites {

    private static final String PUT = "select * from engram_put(?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?)";
    private static final String FORGET = "select * from engram_forget(?, ?, ?, ?, ?, ?)";

    private static final Logger LOG = Logger.getLogger(PgWrites.class);

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Event<JournalAppended> appended;

    /** Writes {@code entry}, whose rules the caller has checked, creating the store with {@code defaultLimit}. */
    Change put(String store, int defaultLimit, Entry entry, PutOptions options) {
        String hash = Hash.of(entry.content());
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(PUT)) {
            s.setString(1, store);
            s.setInt(2, defaultLimit);
            s.setString(3, entry.scope().value());
            s.setString(4, entry.name());
            s.setString(5, entry.content());
            s.setString(6, MetaJson.write(entry.meta()));
            s.setString(7, hash);
            s.setString(8, Match.text(entry));
            s.setString(9, options.session());
            setNullable(s, 10, options.expect().orElse(null));
            setNullable(s, 11, options.base().orElse(null));
            try (ResultSet r = s.executeQuery()) {
                r.next();
                var at = r.getObject(4, OffsetDateTime.class).toInstant();
                Change change = new Change(r.getLong(1),
                        new Entry(entry.scope(), entry.name(), entry.content(), entry.meta(), hash, at, false),
                        r.getString(2), r.getString(3), options.session(), "", at);
                committed(store, change.seq());
                return change;
            }
        } catch (SQLException e) {
            throw refusal(e, entry.scope(), entry.name(), entry.size(), options);
        }
    }

    /** Writes the tombstone of {@code scope/name}. */
    Change forget(String store, Scope scope, String name, PutOptions options) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(FORGET)) {
            s.setString(1, store);
            s.setString(2, scope.value());
            s.setString(3, name);
            s.setString(4, options.session());
            setNullable(s, 5, options.expect().orElse(null));
            setNullable(s, 6, options.base().orElse(null));
            try (ResultSet r = s.executeQuery()) {
                r.next();
                var at = r.getObject(5, OffsetDateTime.class).toInstant();
                String hash = r.getString(4);
                Entry tombstone = new Entry(scope, name, r.getString(2), MetaJson.parse(r.getString(3)), hash, at, true);
                Change change = new Change(r.getLong(1), tombstone, options.base().orElse(hash), hash,
                        options.session(), "", at);
                committed(store, change.seq());
                return change;
            }
        } catch (SQLException e) {
            throw refusal(e, scope, name, -1, options);
        }
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

    /** Turns a refusal raised by a write function into the core's error; anything else is a failure. */
    static RuntimeException refusal(SQLException e, Scope scope, String name, int size, PutOptions options) {
        String detail = e instanceof PSQLException p && p.getServerErrorMessage() != null
                ? p.getServerErrorMessage().getDetail() : null;
        switch (String.valueOf(e.getSQLState())) {
            case "EG404":
                return NotFound.entry(scope, name);
            case "EG412":
                return new Conflict(scope, name, options.expect().orElse(""), detail == null ? "" : detail);
            case "EG429":
                long max = Long.parseLong(detail);
                return new Limited(Limited.Kind.QUOTA, "entries-per-store", max, 0, "The store already holds " + max
                        + " entries, its most; " + scope + "/" + name + " would be one more. Forget entries it no "
                        + "longer needs, or write into an existing one.");
            case "EG413":
                String[] numbers = detail.split(" ");
                return new TooLarge(scope, name, size, Integer.parseInt(numbers[0]), Integer.parseInt(numbers[1]));
            default:
                return new StoreUnavailable(e);
        }
    }

    static void setNullable(PreparedStatement s, int index, String value) throws SQLException {
        if (value == null) {
            s.setNull(index, Types.VARCHAR);
        } else {
            s.setString(index, value);
        }
    }
}
