package dev.engram.ops;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * One collection of the heap, {@code engram.collect-after-start} after start-up. Start-up grows the heap for what
 * it loads once (Hibernate's metamodel, Flyway, the MCP server's schemas) and the serial collector gives back only
 * what a full collection finds free past {@code -XX:MaxHeapFreeRatio}: with the pod's 30%, this one collection
 * takes an idle pod from about 170 MB resident to about 155 (docs/benchmarks.md). A collection of the start-up's
 * twenty-odd live megabytes pauses for tens of milliseconds, before any traffic to speak of.
 */
@ApplicationScoped
public class HeapAfterStart {

    private static final Logger LOG = Logger.getLogger(HeapAfterStart.class);

    @Inject
    EngramConfig config;

    void started(@Observes StartupEvent started) {
        schedule(config.collectAfterStart(), System::gc);
    }

    /** Runs {@code collect} once, {@code delay} from now, on a daemon thread of its own; never for a zero delay. */
    static Thread schedule(Duration delay, Runnable collect) {
        if (delay.isZero() || delay.isNegative()) {
            return null;
        }
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(delay.toMillis());
                collect.run();
                LOG.debug("Collected the heap once after start-up");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "engram-heap-after-start");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
