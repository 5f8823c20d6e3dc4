package dev.engram.persistence;

import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.flywaydb.core.Flyway;
import org.jboss.logging.Logger;

/**
 * Brings the schema to this build's version before anything reads it. Flyway (its scan, validation and lock) costs
 * about a seventh of a start, so it runs only when the database's history is not exactly the migrations this build
 * ships, same versions and same checksums, and the same repeatable migrations ({@code R__}, the write functions' one
 * current definition) at their current checksums: at the first start, after an upgrade, or when something is off,
 * which Flyway then reports. Replicas that start together and all find work queue on Flyway's lock; the first migrates.
 */
@ApplicationScoped
public class SchemaMigrations {

    private static final Logger LOG = Logger.getLogger(SchemaMigrations.class);
    /**
     * Every migration applied, in order: a repeatable one by its file name (Flyway's {@code script}, which may hold
     * the location's path), and when re-applied (its file changed) by its last row.
     */
    private static final String HISTORY = "select coalesce(version, regexp_replace(script, '^.*/', '')), checksum,"
            + " success from flyway_schema_history where version is not null or script ~ '(^|/)R__[^/]*$'"
            + " order by installed_rank";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Instance<Flyway> flyway;

    void migrate(@Observes @Priority(2) StartupEvent started) {
        Optional<Map<String, Integer>> shipped = ShippedMigrations.read(SchemaMigrations.class.getClassLoader());
        if (shipped.isPresent()) {
            Map<String, Integer> applied = applied();
            if (shipped.get().equals(applied)) {
                LOG.infof("The schema has the %d migrations this build ships; nothing to migrate.",
                        shipped.get().size());
                return;
            }
            if (newer(shipped.get(), applied)) {
                LOG.infof("The schema is newer than this build (a rolling update or a rollback): its functions stay "
                        + "as the newer build defined them; nothing to migrate.");
                return;
            }
        }
        flyway.get().migrate();
    }

    /**
     * Whether a newer build migrated the database: it has every versioned migration this build ships, unchanged, and
     * more. Flyway would then re-apply this build's older repeatable migrations over the newer functions.
     */
    static boolean newer(Map<String, Integer> shipped, Map<String, Integer> applied) {
        boolean more = false;
        for (Map.Entry<String, Integer> a : applied.entrySet()) {
            if (!ShippedMigrations.isRepeatable(a.getKey()) && !shipped.containsKey(a.getKey())) {
                more = true;
            }
        }
        for (Map.Entry<String, Integer> s : shipped.entrySet()) {
            if (!ShippedMigrations.isRepeatable(s.getKey()) && !s.getValue().equals(applied.get(s.getKey()))) {
                return false;
            }
        }
        return more;
    }

    /**
     * Version (for a repeatable migration, its file name) to checksum of every migration the database has applied;
     * empty before the first, or if one failed.
     */
    Map<String, Integer> applied() {
        Map<String, Integer> applied = new TreeMap<>();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(HISTORY)) {
            while (rs.next()) {
                if (!rs.getBoolean(3)) {
                    return Map.of();
                }
                applied.put(rs.getString(1), rs.getInt(2));
            }
        } catch (SQLException e) {
            // no history table yet (42P01) or no answer: Flyway decides, and reports what it finds
            return Map.of();
        }
        return applied;
    }
}
