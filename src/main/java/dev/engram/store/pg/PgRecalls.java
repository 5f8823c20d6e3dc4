package dev.engram.store.pg;

import dev.engram.memory.EntryRules;
import dev.engram.ops.EngramConfig;
import dev.engram.recall.Recall;
import dev.engram.recall.Recalls;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Clock;
import org.jboss.logging.Logger;

/** The memories of every store, in PostgreSQL beside its entries (migration V8). */
@ApplicationScoped
public class PgRecalls implements Recalls {

    private static final Logger LOG = Logger.getLogger(PgRecalls.class);

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EngramConfig config;

    @Inject
    Event<JournalAppended> appended;

    private Clock clock = Clock.systemUTC();

    @Override
    public Recall in(String store) {
        EntryRules.checkStoreId(store);
        return new PgRecall(store, this);
    }

    /** The clock memories are stamped with; tests set their own. */
    public void clock(Clock clock) {
        this.clock = clock;
    }

    Clock clock() {
        return clock;
    }

    AgroalDataSource dataSource() {
        return dataSource;
    }

    int defaultMaxEntryBytes() {
        return config.defaultMaxEntryBytes();
    }

    int maxMemories() {
        return config.limits().memoriesPerStore();
    }

    /** Tells the store's followers that its journal reaches {@code seq}; a failure here never undoes the write. */
    void appended(String store, long seq) {
        try {
            appended.fire(new JournalAppended(store, seq));
        } catch (RuntimeException e) {
            LOG.warnf("Memory change %s/%d committed, but telling its followers failed: %s", store, seq, e.toString());
        }
    }
}
