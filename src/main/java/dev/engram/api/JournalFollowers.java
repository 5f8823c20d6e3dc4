package dev.engram.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.engram.memory.Change;
import dev.engram.memory.Stores;
import dev.engram.ops.EngramConfig;
import dev.engram.store.pg.JournalAppended;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The live followers of store journals. A follower is woken at once by a write through this process, and every
 * {@code engram.journal.follow-poll} for writes through other replicas; woken, it reads the journal after its
 * cursor and sends each record as an event whose id is its seq. Records come from the journal, never from the
 * write, so a follower sees each record once and in order whichever replica wrote it.
 */
@ApplicationScoped
public class JournalFollowers {

    private static final Logger LOG = Logger.getLogger(JournalFollowers.class);
    private static final int PAGE = 200;
    private static final long KEEPALIVE_SECONDS = 15;

    @Inject
    Stores stores;

    @Inject
    JsonSetup rest;

    @Inject
    EngramConfig config;

    private final Set<Follower> followers = ConcurrentHashMap.newKeySet();
    private ExecutorService senders;
    private ScheduledExecutorService ticks;

    @PostConstruct
    void start() {
        senders = Executors.newCachedThreadPool(daemon("engram-journal-follower"));
        ticks = Executors.newSingleThreadScheduledExecutor(daemon("engram-journal-poll"));
        long poll = config.journal().followPoll().toMillis();
        ticks.scheduleWithFixedDelay(() -> followers.forEach(Follower::wake), poll, poll, TimeUnit.MILLISECONDS);
        ticks.scheduleWithFixedDelay(() -> followers.forEach(Follower::keepAlive), KEEPALIVE_SECONDS,
                KEEPALIVE_SECONDS, TimeUnit.SECONDS);
    }

    void stop(@Observes ShutdownEvent event) {
        ticks.shutdownNow();
        senders.shutdownNow();
        followers.forEach(Follower::close);
    }

    void follow(String store, long after, SseEventSink sink, Sse sse) {
        Follower f = new Follower(store, after, sink, sse);
        followers.add(f);
        f.wake();
    }

    void onAppended(@Observes JournalAppended appended) {
        for (Follower f : followers) {
            if (f.store.equals(appended.store())) {
                f.wake();
            }
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** One connected follower; its sends run one at a time, in seq order. */
    private final class Follower {
        final String store;
        final SseEventSink sink;
        final Sse sse;
        volatile long cursor;
        final AtomicBoolean draining = new AtomicBoolean();
        volatile boolean dirty;

        Follower(String store, long cursor, SseEventSink sink, Sse sse) {
            this.store = store;
            this.cursor = cursor;
            this.sink = sink;
            this.sse = sse;
        }

        void wake() {
            dirty = true;
            if (sink.isClosed()) {
                followers.remove(this);
            } else if (draining.compareAndSet(false, true)) {
                try {
                    senders.execute(this::drain);
                } catch (RejectedExecutionException stopping) {
                    draining.set(false);
                    close();
                }
            }
        }

        private void drain() {
            try {
                while (dirty) {
                    dirty = false;
                    List<Change> page;
                    do {
                        page = stores.store(store).journal(cursor, PAGE);
                        for (Change c : page) {
                            send(c);
                            cursor = c.seq();
                        }
                    } while (page.size() == PAGE);
                }
            } catch (Exception e) {
                LOG.debugf(e, "Journal follower of %s stopped", store);
                close();
            } finally {
                draining.set(false);
            }
            if (dirty && !sink.isClosed()) {
                wake();
            }
        }

        private void send(Change c) throws Exception {
            sink.send(sse.newEventBuilder().id(Long.toString(c.seq())).name("change").data(String.class, text(c))
                    .build())
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);
        }

        void keepAlive() {
            if (!sink.isClosed() && !draining.get()) {
                sink.send(sse.newEventBuilder().comment("keep-alive").build())
                        .whenComplete((ok, failed) -> {
                            if (failed != null) {
                                close();
                            }
                        });
            } else if (sink.isClosed()) {
                followers.remove(this);
            }
        }

        void close() {
            followers.remove(this);
            try {
                sink.close();
            } catch (RuntimeException alreadyClosed) {
                // nothing left to close
            }
        }

        private String text(Change c) throws JsonProcessingException {
            return rest.mapper().writeValueAsString(ChangeJson.of(c));
        }
    }
}
