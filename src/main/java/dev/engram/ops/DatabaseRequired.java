package dev.engram.ops;

import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * A production build (made with {@code -Dproduction}) carries no embedded PostgreSQL, so with no datasource URL it
 * stops at once and says what to set, before any bean asks for a database that is not there. A local build never
 * gets here without a URL: its embedded database supplies one.
 */
@ApplicationScoped
public class DatabaseRequired {

    void check(@Observes @Priority(0) StartupEvent started) {
        refusal(ConfigProvider.getConfig().getOptionalValue("quarkus.datasource.jdbc.url", String.class))
                .ifPresent(message -> {
                    throw new IllegalStateException(message);
                });
    }

    /** Why Engram cannot start with this datasource URL, if it cannot. */
    static Optional<String> refusal(Optional<String> url) {
        if (url.filter(u -> !u.isBlank()).isPresent()) {
            return Optional.empty();
        }
        return Optional.of("No database is configured, and this build of Engram has no embedded PostgreSQL (it was "
                + "built for production). Set QUARKUS_DATASOURCE_JDBC_URL (jdbc:postgresql://host:5432/db), "
                + "QUARKUS_DATASOURCE_USERNAME and QUARKUS_DATASOURCE_PASSWORD to a PostgreSQL 15 or later: see "
                + "docs/deploy.md. For a local run with an embedded database, build without -Dproduction.");
    }
}
