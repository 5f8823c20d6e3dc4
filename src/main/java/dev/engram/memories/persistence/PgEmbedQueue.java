package dev.engram.memories.persistence;

import dev.engram.memories.rank.Embedder;
import dev.engram.persistence.Sql;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Embeds memories off the request path. A save queues its memory in the save's own transaction (migration V13's
 * trigger), so nothing queued is lost when a JVM dies; this replica's one thread claims up to a batch of the oldest
 * (other replicas skip what it claimed, and take it over when the claim runs out), embeds them, and writes each vector
 * under the store's lock, unless the memory's content changed since it was claimed (then its newer entry waits).
 * A provider that fails leaves the batch claimed for {@link #RETRY_AFTER}; after {@link #MAX_ATTEMPTS} the entry is
 * dropped with an error in the log, and the memory stays found by its words only. While saves come faster than
 * {@value #BUSY_SAVES_PER_SECOND} a second, it takes a tenth of one core, so that a burst of saves is not slowed
 * by the embedding of the ones before; the queue drains when the burst ends.
 */
final class PgEmbedQueue implements Runnable {

    private static final Logger LOG = Logger.getLogger(PgEmbedQueue.class);
    static final Duration RETRY_AFTER = Duration.ofSeconds(30);
    static final int MAX_ATTEMPTS = 5;
    /** How long the thread sleeps when the queue is empty and nothing here saved; other replicas' saves wait this. */
    static final Duration IDLE = Duration.ofMillis(500);

    private final Sql sql;
    private final Embedder embedder;
    private final int batch;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition saved = lock.newCondition();
    private boolean poked;
    private final java.util.concurrent.atomic.AtomicLong saves = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean stopped;
    private Thread thread;

    PgEmbedQueue(DataSource dataSource, Embedder embedder, int batch) {
        this.sql = Raced.sql(dataSource, 0);
        this.embedder = embedder;
        this.batch = batch;
    }

    /** Starts the thread; with no embedding model it does nothing. */
    synchronized void start() {
        if (embedder == Embedder.NONE || thread != null) {
            return;
        }
        thread = new Thread(this, "engram-embed");
        thread.setDaemon(true);
        thread.start();
    }

    synchronized void stop() {
        stopped = true;
        if (thread != null) {
            thread.interrupt();
        }
    }

    /** Tells the thread a memory was queued here, so it need not wait for its next look. */
    void poke() {
        saves.incrementAndGet();
        lock.lock();
        try {
            poked = true;
            saved.signal();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void run() {
        try {
            requeueOtherModels();
        } catch (RuntimeException e) {
            LOG.warnf("Could not queue the memories embedded by another model than %s: %s", embedder.model(), e);
        }
        long sweptAt = 0;
        long savesBefore = saves.get();
        long before = System.nanoTime();
        while (!stopped) {
            try {
                if (System.nanoTime() - sweptAt > Duration.ofMinutes(1).toNanos()) {
                    sweep();
                    sweptAt = System.nanoTime();
                }
                long started = System.nanoTime();
                if (step() == 0) {
                    idle();
                } else if (busy(savesBefore, before, started)) {
                    yieldToRequests(System.nanoTime() - started);
                }
                savesBefore = saves.get();
                before = started;
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (stopped) {
                    return;
                }
                LOG.warnf("Embedding memories failed; trying again in %d s: %s", RETRY_AFTER.toSeconds(), e);
                try {
                    Thread.sleep(RETRY_AFTER.toMillis() / 10);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    /** Saves here per second above which the embedder takes only {@link #BUSY_SHARE} of one core. */
    static final double BUSY_SAVES_PER_SECOND = 200;
    /** The share of one core the embedder takes while saves come fast: the rest waits for a quieter moment. */
    static final double BUSY_SHARE = 0.1;

    private boolean busy(long savesBefore, long before, long now) {
        double seconds = Math.max(1e-3, (now - before) / 1e9);
        return (saves.get() - savesBefore) / seconds > BUSY_SAVES_PER_SECOND;
    }

    /** Sleeps so that the batch that took {@code spent} nanoseconds is {@link #BUSY_SHARE} of the time. */
    private static void yieldToRequests(long spent) throws InterruptedException {
        long pause = (long) (spent * (1 / BUSY_SHARE - 1) / 1_000_000);
        Thread.sleep(Math.min(pause, 2_000));
    }

    private void idle() throws InterruptedException {
        lock.lock();
        try {
            if (!poked) {
                saved.await(IDLE.toMillis(), TimeUnit.MILLISECONDS);
            }
            poked = false;
        } finally {
            lock.unlock();
        }
    }

    /** One memory claimed: where it is, its change number when queued, and its content. */
    record Claimed(String store, String id, long change, String content) {
    }

    /** Claims, embeds and writes one batch; answers how many were claimed. */
    int step() {
        List<Claimed> claimed = claim();
        if (claimed.isEmpty()) {
            return 0;
        }
        List<Claimed> present = claimed.stream().filter(c -> c.content() != null).toList();
        List<float[]> vectors;
        try {
            vectors = present.isEmpty() ? List.of() : embedder.embed(present.stream().map(Claimed::content).toList());
            if (vectors.size() != present.size()) {
                throw new IllegalStateException(vectors.size() + " vectors for " + present.size() + " texts");
            }
        } catch (RuntimeException e) {
            giveUpOnSpent(claimed);
            LOG.warnf("The embedding model %s failed on %d memories (they wait %d s): %s", embedder.model(),
                    present.size(), RETRY_AFTER.toSeconds(), e.getMessage());
            return claimed.size();
        }
        List<Embedded> embedded = new ArrayList<>(claimed.size());
        for (int i = 0; i < present.size(); i++) {
            Claimed c = present.get(i);
            Optional<float[]> unit = Embedder.unit(vectors.get(i), embedder.dimensions());
            if (unit.isEmpty()) {
                LOG.errorf("The embedding model %s gave memory %s/%s a vector of %d floats, not %d finite ones: "
                        + "refused", embedder.model(), c.store(), c.id(), vectors.get(i) == null ? 0
                        : vectors.get(i).length, embedder.dimensions());
            }
            embedded.add(new Embedded(c, unit.orElse(null)));
        }
        claimed.stream().filter(c -> c.content() == null).forEach(c -> embedded.add(new Embedded(c, null)));
        Map<String, List<Embedded>> byStore = embedded.stream().collect(Collectors.groupingBy(
                e -> e.claimed().store(), LinkedHashMap::new, Collectors.toList()));
        byStore.forEach(this::write);
        return claimed.size();
    }

    /** A claimed memory and its unit vector; null when it went or the model gave no usable vector. */
    private record Embedded(Claimed claimed, float[] vector) {
    }

    private List<Claimed> claim() {
        return sql.list("with next as (select store_id, id from embed_queue where claimed_until is null or "
                + "claimed_until < now() order by change limit ? for update skip locked), taken as (update "
                + "embed_queue q set claimed_until = now() + make_interval(secs => ?), attempts = q.attempts + 1 "
                + "from next where q.store_id = next.store_id and q.id = next.id returning q.store_id, q.id, "
                + "q.change) select t.store_id, t.id, t.change, m.content from taken t left join memory m on "
                + "m.store_id = t.store_id and m.id = t.id order by t.change",
                r -> new Claimed(r.getString(1), r.getString(2), r.getLong(3), r.getString(4)), batch,
                RETRY_AFTER.toSeconds());
    }

    /** Writes a store's vectors under its lock; an entry whose memory went or changed since is only dropped. */
    private void write(String store, List<Embedded> done) {
        sql.transaction(tx -> {
            tx.first("select 1 from engram_store_lock(?, null)", r -> 1, store);
            for (Embedded d : done) {
                if (tx.update("delete from embed_queue where store_id = ? and id = ? and change = ?", store,
                        d.claimed().id(), d.claimed().change()) == 1 && d.vector() != null) {
                    tx.update("insert into memory_vector (store_id, id, model, dimensions, vector, embedded_at, "
                            + "change) select m.store_id, m.id, ?, ?, ?, now(), 0 from memory m where m.store_id = ? "
                            + "and m.id = ? on conflict (store_id, id) do update set model = excluded.model, "
                            + "dimensions = excluded.dimensions, vector = excluded.vector, embedded_at = "
                            + "excluded.embedded_at",
                            embedder.model(), d.vector().length, PgRecallIndexes.bytes(d.vector()), store,
                            d.claimed().id());
                }
            }
            return done;
        });
    }

    /** Drops the entries of a failed batch that have had their last attempt. */
    private void giveUpOnSpent(List<Claimed> claimed) {
        sql.connected(tx -> {
            for (Claimed x : claimed) {
                if (tx.first("delete from embed_queue where store_id = ? and id = ? and change = ? and attempts >= ? "
                        + "returning id", r -> 1, x.store(), x.id(), x.change(), MAX_ATTEMPTS).isPresent()) {
                    LOG.errorf("Memory %s/%s was not embedded after %d attempts: it is found by its words only "
                            + "until it changes or the model does", x.store(), x.id(), MAX_ATTEMPTS);
                }
            }
            return claimed;
        });
    }

    /** Queues every memory with no vector of this model: after a change of model, or one never embedded. */
    private void requeueOtherModels() {
        long n = sql.connected(tx -> tx.update("insert into embed_queue (store_id, id, change) select m.store_id, "
                + "m.id, m.change from memory m left join memory_vector v on v.store_id = m.store_id and v.id = m.id "
                + "where v.id is null or v.model <> ? or (? > 0 and v.dimensions <> ?) on conflict do nothing",
                embedder.model(), embedder.dimensions(), embedder.dimensions()));
        if (n > 0) {
            LOG.infof("Queued %d memories to embed with %s", n, embedder.model());
        }
    }

    /** Forgets deletions older than an hour (an index that has not looked since reads its store whole). */
    private void sweep() {
        sql.connected(tx -> tx.update("delete from memory_gone where at < now() - interval '1 hour'"));
    }
}
