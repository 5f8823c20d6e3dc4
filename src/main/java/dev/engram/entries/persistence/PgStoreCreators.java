package dev.engram.entries.persistence;

import dev.engram.persistence.StoreUnavailable;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** Which key created which store, for the quota of stores per key (migration V7, {@code engram_claim_store}). */
@ApplicationScoped
public class PgStoreCreators {

    @Inject
    AgroalDataSource dataSource;

    /**
     * Claims {@code store} for {@code creator} unless it already created {@code max} stores; true when the store is
     * its to write now (claimed, claimed before, or existing by now).
     */
    public boolean claim(String store, String creator, int max) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement("select engram_claim_store(?, ?, ?)")) {
            s.setString(1, store);
            s.setString(2, creator);
            s.setInt(3, max);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getBoolean(1);
            }
        } catch (SQLException e) {
            throw new StoreUnavailable(e);
        }
    }
}
