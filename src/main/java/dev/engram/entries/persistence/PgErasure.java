package dev.engram.entries.persistence;

import dev.engram.journal.persistence.JournalAppended;
import dev.engram.journal.persistence.JournalColumns;
import dev.engram.persistence.StoreUnavailable;
import dev.engram.entries.Change;
import dev.engram.entries.Erasure;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Scope;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Erasure: one call of {@code engram_erase} (migration V5), in one transaction under the store's row lock. */
@ApplicationScoped
class PgErasure {

    private static final String ERASE = "select " + JournalColumns.select("e.") + " from engram_erase(?, ?, ?, ?, ?) e";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Event<JournalAppended> appended;

    /** Erases {@code scope/name} of {@code store}, and returns the erasure record. */
    Change erase(String store, Scope scope, String name, Erasure erasure) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(ERASE)) {
            s.setString(1, store);
            s.setString(2, scope.value());
            s.setString(3, name);
            s.setString(4, erasure.by());
            s.setString(5, erasure.reason());
            try (ResultSet r = s.executeQuery()) {
                r.next();
                Change record = JournalColumns.change(r, 1);
                appended.fire(new JournalAppended(store, record.seq()));
                return record;
            }
        } catch (SQLException e) {
            if ("EG404".equals(e.getSQLState())) {
                throw NotFound.neverHeld(scope, name);
            }
            throw new StoreUnavailable(e);
        }
    }
}
