package dev.engram.ops;

import dev.engram.kernel.Limited;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Announces the end of Quarkus's shutdown delay, which Quarkus itself does not: {@link Over} is fired
 * {@code quarkus.shutdown.delay} after the delay began (readiness DOWN, requests still served), when a load balancer
 * has had the delay to stop sending requests here, and as Quarkus starts to wait for the requests in flight. Streams
 * that would never end by themselves (journal followers, MCP event streams) end then, so that their clients
 * reconnect to a replica still in service and none holds the shutdown to its timeout. With no delay (tests, dev
 * mode, or {@code 0s}) it is fired at once.
 */
@ApplicationScoped
public class ShutdownDelay {

    /** The shutdown delay is over: end what would otherwise hold the shutdown, and refuse new streams. */
    public record Over() {
    }

    private static final Logger LOG = Logger.getLogger(ShutdownDelay.class);

    @ConfigProperty(name = "quarkus.shutdown.delay")
    Optional<Duration> delay;

    @Inject
    Event<Over> over;

    /**
     * The refusal of a new stream ({@code what}: "journal followers", "MCP event streams") once the delay is over:
     * 503 {@code busy}, limit {@code shutting-down}, with a Retry-After after which the load balancer sends the
     * retry to a replica in service.
     */
    public static Limited refusal(String what) {
        return new Limited(Limited.Kind.CAPACITY, "shutting-down", 0, 1, "This replica is shutting down and opens no "
                + "new " + what + ". Retry after the seconds in Retry-After; the retry goes to a replica in service.");
    }

    void began(@Observes ShutdownDelayInitiatedEvent began) {
        long millis = LaunchMode.current() == LaunchMode.DEVELOPMENT ? 0 : delay.map(Duration::toMillis).orElse(0L);
        if (millis <= 0) {
            over.fire(new Over());
            return;
        }
        LOG.infof("Shutting down: readiness is DOWN; requests are served for %d ms more", millis);
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            over.fire(new Over());
        }, "engram-shutdown-delay");
        t.setDaemon(true);
        t.start();
    }
}
