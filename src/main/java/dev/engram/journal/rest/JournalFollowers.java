package dev.engram.journal.rest;

import dev.engram.entries.rest.ChangeJson;
import dev.engram.rest.JsonSetup;
import dev.engram.entries.rest.Replies;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.engram.access.Caller;
import dev.engram.kernel.Limited;
import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Paged;
import dev.engram.entries.Stores;
import dev.engram.ops.EngramConfig;
import dev.engram.ops.ShutdownDelay;
import dev.engram.journal.persistence.JournalAppended;
import dev.engram.journal.persistence.JournalNotified;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.jboss.logging.Logger;

/**
 * The live followers of store journals, at most {@code engram.journal.max-followers} on this replica. A follower is
 * woken by a write through this process, or by another replica's notification ({@link JournalNotified}); woken, it
 * reads the journal after its cursor on one of {@code engram.journal.follower-threads} threads and sends each record
 * as an event whose id is its seq, without holding the thread while the client takes it. An idle follower costs no
 * query. Records come from the journal, never from the write, so a follower sees each record once and in order
 * whichever replica wrote it. When the replica shuts down, followers are served through the shutdown delay; at its
 * end each is sent a {@code reconnect} event naming the last seq it was sent, and its stream ends; new followers are
 * refused from then until the process exits.
 */
@ApplicationScoped
public class JournalFollowers {

    private static final Logger LOG = Logger.getLogger(JournalFollowers.class);
    private static final int PAGE = 200;
    private static final long KEEPALIVE_SECONDS = 15;
    /** How long a client may take to accept one page of events before it is disconnected. */
    private static final long SEND_TIMEOUT_SECONDS = 30;
    /**
     * How long a follower's stream may stay open once the shutdown delay is over (to take the page it is being sent
     * and the reconnect event) before it is closed regardless; well under {@code quarkus.shutdown.timeout}.
     */
    private static final long FAREWELL_SECONDS = 5;
    /** How long the reconnect event asks a client to wait before it reconnects (the event's SSE {@code retry}). */
    static final long RECONNECT_RETRY_MS = 1000;

    @Inject
    Stores stores;

    @Inject
    JsonSetup rest;

    @Inject
    EngramConfig config;

    @Inject
    MeterRegistry registry;

    private final Set<Follower> followers = ConcurrentHashMap.newKeySet();
    private final AtomicLong reads = new AtomicLong();
    private ExecutorService readers;
    private ScheduledExecutorService ticks;
    private volatile boolean leaving;

    @PostConstruct
    void start() {
        readers = Executors.newFixedThreadPool(config.journal().followerThreads(), daemon("engram-journal-follower"));
        ticks = Executors.newSingleThreadScheduledExecutor(daemon("engram-journal-keepalive"));
        ticks.scheduleWithFixedDelay(() -> followers.forEach(Follower::keepAlive), KEEPALIVE_SECONDS,
                KEEPALIVE_SECONDS, TimeUnit.SECONDS);
        Gauge.builder("engram.journal.followers", followers, Set::size)
                .description("Live journal followers this replica serves").register(registry);
        FunctionCounter.builder("engram.journal.follower.reads", reads, AtomicLong::get)
                .description("Journal pages read for live followers").register(registry);
    }

    /**
     * The shutdown delay is over (a load balancer has stopped sending requests here): every follower is sent its
     * reconnect event and its stream ends, so that it resumes on a replica in service and does not hold the
     * shutdown; new followers are refused. Returns at once; the events go out on the follower threads.
     */
    void leave(@Observes ShutdownDelay.Over over) {
        leaving = true;
        followers.forEach(Follower::wake);
        try {
            ticks.schedule(() -> followers.forEach(Follower::close), FAREWELL_SECONDS, TimeUnit.SECONDS);
        } catch (RejectedExecutionException stopped) {
            followers.forEach(Follower::close);
        }
    }

    void stop(@Observes ShutdownEvent event) {
        leaving = true;
        ticks.shutdownNow();
        readers.shutdownNow();
        followers.forEach(Follower::close);
    }

    /**
     * How a follower writes the records it sends: one event a record, named {@link #name}, its id the record's seq.
     * The API's follower sends each record's JSON as a {@code change} event; the console's sends the timeline's row.
     */
    public interface Events {

        /** The name of each record's event. */
        String name();

        /**
         * The data of each record of {@code page}, in order: one line of text a record. Called on a follower thread,
         * before the page is sent; it may read the store. A failure ends the stream.
         */
        List<String> data(List<JournalRecord> page);
    }

    /**
     * Follows {@code store} after {@code after} for as long as {@code allowed} (asked before each page) holds, each
     * record sent as its JSON in a {@code change} event; refused when {@code caller} (the operator key aside) already
     * holds its most followers here, when this replica serves its most followers, or once its shutdown delay is over.
     */
    void follow(String store, long after, SseEventSink sink, Sse sse, Caller caller, BooleanSupplier allowed) {
        follow(store, after, sink, sse, caller, allowed, json);
    }

    /**
     * As {@link #follow(String, long, SseEventSink, Sse, Caller, BooleanSupplier)}, each record sent as
     * {@code events} writes it.
     */
    public void follow(String store, long after, SseEventSink sink, Sse sse, Caller caller, BooleanSupplier allowed,
            Events events) {
        if (leaving) {
            throw ShutdownDelay.refusal("journal followers");
        }
        int perKey = config.limits().followersPerKey();
        if (!caller.operatorKey() && followers.stream()
                .filter(f -> f.caller.equals(caller.id()) && !f.sink.isClosed()).count() >= perKey) {
            throw new Limited(Limited.Kind.QUOTA, "journal-followers-per-key", perKey, 0, "This key already follows "
                    + perKey + " journals live on this replica. Close one first, or read pages with ?after= instead "
                    + "of following.");
        }
        int max = config.journal().maxFollowers();
        if (followers.size() >= max) {
            throw new Limited(Limited.Kind.CAPACITY, "journal-followers", max, 5, "This replica already serves its "
                    + max + " live journal followers. Retry after the seconds in Retry-After (another replica may "
                    + "have room), or read pages with ?after= instead of following.");
        }
        if (!opened(store, sink, sse)) {
            return;
        }
        Follower f = new Follower(store, caller.id(), after, sink, sse, allowed, events);
        followers.add(f);
        f.wake(); // after the add, so that a shutdown begun meanwhile sends this one its reconnect event too
    }

    /**
     * Writes the stream's head, with a comment, on the request's own thread and waits until it is out. Only then may
     * the pool send pages: a page sent while RESTEasy was still writing the head made it write the head twice
     * ("Response head already sent" over HTTP/2) and the follower was lost after its first page.
     */
    private static boolean opened(String store, SseEventSink sink, Sse sse) {
        try {
            sink.send(sse.newEventBuilder().comment("following").build()).toCompletableFuture()
                    .get(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.debugf(e, "A follower of %s went away before its stream opened", store);
        }
        sink.close();
        return false;
    }

    /** How many journal pages this replica has read for its followers. */
    long reads() {
        return reads.get();
    }

    void onAppended(@Observes JournalAppended appended) {
        wake(appended.store());
    }

    void onNotified(@Observes JournalNotified notified) {
        for (Follower f : followers) {
            if (notified.concerns(f.store)) {
                f.wake();
            }
        }
    }

    private void wake(String store) {
        for (Follower f : followers) {
            if (f.store.equals(store)) {
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

    /** One connected follower; one page at a time is read and sent, in seq order. */
    private final class Follower {
        final String store;
        final String caller;
        final SseEventSink sink;
        final Sse sse;
        final BooleanSupplier allowed;
        final Events events;
        volatile long cursor;
        final AtomicBoolean draining = new AtomicBoolean();
        volatile boolean dirty;

        Follower(String store, String caller, long cursor, SseEventSink sink, Sse sse, BooleanSupplier allowed,
                Events events) {
            this.store = store;
            this.caller = caller;
            this.allowed = allowed;
            this.events = events;
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
                    readers.execute(this::drain);
                } catch (RejectedExecutionException stopping) {
                    draining.set(false);
                    close();
                }
            }
        }

        /**
         * Reads one page after the cursor and sends it; once sent, reads the next if more may be waiting. Once the
         * replica is leaving, sends the reconnect event instead, and nothing after it.
         */
        private void drain() {
            if (leaving) {
                farewell();
                return;
            }
            List<JournalRecord> page;
            List<String> texts;
            boolean more;
            try {
                dirty = false;
                if (!allowed.getAsBoolean()) {
                    LOG.debugf("Journal follower of %s closed: its token no longer reads the store", store);
                    close();
                    draining.set(false);
                    return;
                }
                reads.incrementAndGet();
                Paged<JournalRecord> paged = stores.store(store).journalPage(cursor, PAGE, config.limits().pageBytes());
                page = paged.items();
                more = paged.more();
                texts = events.data(page);
            } catch (RuntimeException e) {
                LOG.debugf(e, "Journal follower of %s stopped", store);
                close();
                draining.set(false);
                return;
            }
            send(page, texts, 0).toCompletableFuture().orTimeout(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .whenComplete((sent, failed) -> {
                        if (failed != null) {
                            LOG.debugf(failed, "Journal follower of %s disconnected", store);
                            close();
                        }
                        if (more) {
                            dirty = true;
                        }
                        draining.set(false);
                        if (failed == null && (dirty || leaving) && !sink.isClosed()) {
                            wake();
                        }
                    });
        }

        private CompletionStage<Void> send(List<JournalRecord> page, List<String> texts, int i) {
            if (i == page.size()) {
                return CompletableFuture.completedFuture(null);
            }
            JournalRecord c = page.get(i);
            return emit(sse.newEventBuilder().id(Long.toString(c.seq())).name(events.name())
                    .data(String.class, texts.get(i)).build()).thenCompose(v -> {
                        cursor = c.seq();
                        return send(page, texts, i + 1);
                    });
        }

        /**
         * The last event: where to resume ({@code last_seq}, the seq of the last record sent, or the cursor the
         * follow began at) and when; then the stream ends. {@code draining} stays set, so nothing else is sent.
         */
        private void farewell() {
            String data;
            try {
                data = rest.mapper().writeValueAsString(new Replies.Reconnect("shutting-down", cursor,
                        RECONNECT_RETRY_MS));
            } catch (JsonProcessingException e) {
                close();
                return;
            }
            emit(sse.newEventBuilder().name("reconnect").reconnectDelay(RECONNECT_RETRY_MS)
                    .data(String.class, data).build()).toCompletableFuture()
                    .orTimeout(FAREWELL_SECONDS, TimeUnit.SECONDS)
                    .whenComplete((sent, failed) -> close());
        }

        void keepAlive() {
            if (!sink.isClosed() && !draining.get() && !allowed.getAsBoolean()) {
                close();
            } else if (!sink.isClosed() && !draining.get()) {
                emit(sse.newEventBuilder().comment("keep-alive").build())
                        .whenComplete((ok, failed) -> {
                            if (failed != null) {
                                close();
                            }
                        });
            } else if (sink.isClosed()) {
                followers.remove(this);
            }
        }

        /**
         * Sends {@code event}; a sink the client closed since it was last checked refuses at once, by throwing, and
         * that is answered as a failed send, so the caller closes the follower as for any other failure (thrown, it
         * left the follower draining, and the pool's thread died with it).
         */
        private CompletionStage<?> emit(OutboundSseEvent event) {
            try {
                return sink.send(event);
            } catch (IllegalStateException e) {
                return CompletableFuture.failedFuture(e);
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
    }

    /** The API's events: each record's JSON ({@link ChangeJson}) in a {@code change} event. */
    private final Events json = new Events() {
        @Override
        public String name() {
            return "change";
        }

        @Override
        public List<String> data(List<JournalRecord> page) {
            return page.stream().map(c -> {
                try {
                    return rest.mapper().writeValueAsString(ChangeJson.of(c));
                } catch (JsonProcessingException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
    };
}
