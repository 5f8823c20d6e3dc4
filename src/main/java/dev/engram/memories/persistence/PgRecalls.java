package dev.engram.memories.persistence;

import dev.engram.journal.persistence.JournalAppended;
import dev.engram.entries.EntryRules;
import dev.engram.ops.EngramConfig;
import dev.engram.memories.Recall;
import dev.engram.memories.RankedSearch;
import dev.engram.memories.Recalls;
import dev.engram.memories.rank.Embedder;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import org.eclipse.microprofile.config.inject.ConfigProperty;
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

    @Inject
    jakarta.enterprise.inject.Instance<Embedder> embedders;

    @Inject
    io.micrometer.core.instrument.MeterRegistry registry;

    @ConfigProperty(name = "engram.recall.index-max-memories", defaultValue = "150000")
    int indexMaxMemories;

    @ConfigProperty(name = "engram.embedding.batch-size", defaultValue = "32")
    int embedBatch;

    private Clock clock = Clock.systemUTC();
    private volatile Ranker ranker;

    /** The parts ranked search shares across stores, made on first use. */
    record Ranker(RankedSearch search, PgRecallIndexes indexes, PgEmbedQueue queue) {
    }

    Ranker ranker() {
        Ranker r = ranker;
        if (r == null) {
            synchronized (this) {
                if (ranker == null) {
                    Embedder e = embedders.isResolvable() ? embedders.get() : Embedder.NONE;
                    PgEmbedQueue queue = new PgEmbedQueue(dataSource, e, embedBatch);
                    RankedSearch search = new RankedSearch(e);
                    ranker = new Ranker(search, new PgRecallIndexes(dataSource, indexMaxMemories), queue);
                    io.micrometer.core.instrument.FunctionCounter.builder("engram.recall.lexical.fallbacks", search,
                            RankedSearch::fallbacks).description("Searches ranked lexically because the query could "
                                    + "not be embedded").register(registry);
                    queue.start();
                }
                r = ranker;
            }
        }
        return r;
    }

    /** Tells this replica's embedder that a save queued a memory. */
    void queued() {
        Ranker r = ranker;
        if (r != null) {
            r.queue().poke();
        }
    }

    private volatile VectorSupport vectors;

    /** What the database offers for vectors, as checked at start. */
    VectorSupport vectors() {
        VectorSupport v = vectors;
        if (v == null) {
            v = VectorSupport.of(dataSource);
            vectors = v;
        }
        return v;
    }

    /** Starts embedding what waits as soon as the application is up (not on the first search). */
    void started(@Observes io.quarkus.runtime.StartupEvent event) {
        Ranker r = ranker();
        VectorSupport v = vectors();
        LOG.infof("Recall: hybrid ranking with embedding model %s; similarity on the %s; pgvector %s%s",
                r.search().embedder() == Embedder.NONE ? "none (lexical only)" : r.search().embedder().model(),
                v.path(), v.pgvector(), VectorSupport.ABSENT.equals(v.pgvector()) ? "" : " (not used: the in-memory "
                        + "index serves every store up to engram.recall.index-max-memories)");
    }

    void stopping(@Observes io.quarkus.runtime.ShutdownEvent event) {
        Ranker r = ranker;
        if (r != null) {
            r.queue().stop();
        }
    }

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
