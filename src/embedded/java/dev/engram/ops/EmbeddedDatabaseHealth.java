package dev.engram.ops;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Liveness;

/**
 * Liveness of the embedded PostgreSQL: DOWN once it has been down, and failing to start again, for longer than
 * {@code engram.embedded.restart-grace}, so that whatever runs Engram restarts it. UP with no embedded server
 * (readiness follows an external database), and UP while a restart is under way within the grace.
 */
@Liveness
@ApplicationScoped
public class EmbeddedDatabaseHealth implements HealthCheck {

    private final Duration grace;

    EmbeddedDatabaseHealth(EngramConfig config) {
        this.grace = config.embedded().restartGrace();
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder r = HealthCheckResponse.named("Embedded PostgreSQL");
        if (System.getProperty(EmbeddedPostgres.URL_PROPERTY) == null) {
            return r.up().withData("embedded", false).build();
        }
        r.withData("embedded", true).withData("restarts", Integer.getInteger(PostmasterWatch.RESTARTS, 0));
        String since = System.getProperty(PostmasterWatch.DOWN_SINCE);
        if (since == null) {
            return r.up().build();
        }
        Instant down = Instant.ofEpochMilli(Long.parseLong(since));
        r.withData("down_since", down.toString())
                .withData("last_error", System.getProperty(PostmasterWatch.LAST_ERROR, "starting again"));
        return Instant.now().isAfter(down.plus(grace)) ? r.down().build() : r.up().build();
    }
}
