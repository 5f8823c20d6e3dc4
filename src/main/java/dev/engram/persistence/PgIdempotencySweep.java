package dev.engram.persistence;

import dev.engram.ops.EngramConfig;
import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Deletes idempotency keys older than {@code engram.idempotency.retention}, once a minute, in batches of
 * {@link #BATCH} rows by the index on {@code created_at}, so that no statement holds many locks or runs long.
 * Every replica sweeps; two sweeps at once only find less to delete.
 */
@ApplicationScoped
class PgIdempotencySweep {

    private static final Logger LOG = Logger.getLogger(PgIdempotencySweep.class);
    static final int BATCH = 1000;
    /** The most batches one sweep deletes; what is left waits for the next minute. */
    static final int MAX_BATCHES = 100;
    private static final String DELETE = "delete from idempotency where ctid = any(array(select ctid from idempotency"
            + " where created_at < clock_timestamp() - ?::interval limit " + BATCH + "))";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EngramConfig config;

    private ScheduledExecutorService ticks;

    void start(@Observes StartupEvent started) {
        ticks = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "engram-idempotency-sweep");
            t.setDaemon(true);
            return t;
        });
        ticks.scheduleWithFixedDelay(this::sweepQuietly, 1, 1, TimeUnit.MINUTES);
    }

    void stop(@Observes ShutdownEvent event) {
        if (ticks != null) {
            ticks.shutdownNow();
        }
    }

    private void sweepQuietly() {
        try {
            sweep(config.idempotency().retention());
        } catch (RuntimeException e) {
            LOG.debugf(e, "The idempotency sweep failed; it runs again in a minute");
        }
    }

    /** Deletes keys recorded longer ago than {@code retention}, and returns how many. */
    int sweep(Duration retention) {
        String age = retention.toMillis() + " milliseconds";
        return new Sql(dataSource).connected(tx -> {
            int deleted = 0;
            for (int batch = 0; batch < MAX_BATCHES; batch++) {
                long n = tx.update(DELETE, age);
                deleted += (int) n;
                if (n < BATCH) {
                    break;
                }
            }
            return deleted;
        });
    }
}
