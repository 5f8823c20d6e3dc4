package dev.engram.journal.persistence;

import dev.engram.ops.EngramConfig;
import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Tells the other replicas which journals moved, and hears what they tell: PostgreSQL {@code LISTEN/NOTIFY} on the
 * channel {@value #CHANNEL}, whose payload is a comma-separated list of store ids.
 *
 * <p>Writes never notify inside their own transaction: a committing transaction that notifies takes a lock that
 * serialises every other notifying commit of the database, which would serialise all stores' writes. Instead this
 * process queues the stores its writes touched and sends them from one thread, at most once every
 * {@code engram.journal.notify-interval}, each batch its own tiny transaction. Followers of other replicas therefore
 * learn of a write within that interval; followers of this replica are woken by the write itself.
 *
 * <p>One pooled connection stays open to {@code LISTEN}. When it breaks (PostgreSQL restarted), it is opened again
 * and every follower is woken once, since notifications sent meanwhile are lost.
 */
@ApplicationScoped
public class JournalSignals {

    /** The notification channel. */
    public static final String CHANNEL = "engram_journal";
    private static final Logger LOG = Logger.getLogger(JournalSignals.class);
    /** PostgreSQL's payload limit is 8000 bytes; batches are split well below it. */
    private static final int MAX_PAYLOAD = 7000;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EngramConfig config;

    @Inject
    Event<JournalNotified> notified;

    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final BlockingQueue<String> queue = new LinkedBlockingQueue<>();
    private volatile boolean running;
    private volatile int ownPid = -1;
    private Connection notifying;
    private Thread notifier;
    private Thread listener;

    void start(@Observes StartupEvent event) {
        running = true;
        notifier = daemon("engram-journal-notify", this::notifyLoop);
        listener = daemon("engram-journal-listen", this::listenLoop);
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        if (notifier != null) {
            notifier.interrupt();
            flush();
        }
        Connection c = notifying;
        if (c != null) {
            close(c);
        }
        if (listener != null) {
            listener.interrupt();
        }
    }

    /**
     * Sends what the last writes of this process queued (at most one interval's worth), once the notifier has
     * stopped, so that followers on the other replicas learn of them now rather than at the next write to the store.
     */
    private void flush() {
        try {
            notifier.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        List<String> last = new ArrayList<>();
        queue.drainTo(last);
        if (last.isEmpty() || notifier.isAlive()) {
            return;
        }
        try {
            send(last);
        } catch (SQLException | RuntimeException e) {
            LOG.debugf(e, "Could not notify other replicas of the last journal writes; their followers catch up later");
        }
    }

    /** Queues a notification that the store's journal moved, after a write of this process committed. */
    void moved(@Observes JournalAppended appended) {
        if (pending.add(appended.store())) {
            queue.offer(appended.store());
        }
    }

    private void notifyLoop() {
        long interval = config.journal().notifyInterval().toMillis();
        while (running) {
            try {
                String first = queue.take();
                List<String> batch = new ArrayList<>();
                batch.add(first);
                queue.drainTo(batch);
                batch.forEach(pending::remove);
                send(batch);
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException | SQLException e) {
                LOG.debugf(e, "Could not notify other replicas of journal writes; their followers catch up later");
                pause(1000);
            }
        }
    }

    /** Sends on a connection of its own, kept open, so the listener can tell this process's notifications. */
    private void send(List<String> stores) throws SQLException {
        if (notifying == null || notifying.isClosed()) {
            notifying = dataSource.getConnection();
            ownPid = notifying.unwrap(PGConnection.class).getBackendPID();
        }
        try (PreparedStatement s = notifying.prepareStatement("select pg_notify('" + CHANNEL + "', ?)")) {
            StringBuilder payload = new StringBuilder();
            for (String store : stores) {
                if (payload.length() + store.length() + 1 > MAX_PAYLOAD) {
                    s.setString(1, payload.toString());
                    s.execute();
                    payload.setLength(0);
                }
                payload.append(payload.isEmpty() ? "" : ",").append(store);
            }
            s.setString(1, payload.toString());
            s.execute();
        } catch (SQLException e) {
            close(notifying);
            notifying = null;
            throw e;
        }
    }

    private static void close(Connection c) {
        try {
            c.close();
        } catch (SQLException alreadyBroken) {
            // the pool drops it
        }
    }

    private void listenLoop() {
        boolean first = true;
        while (running) {
            try (Connection c = dataSource.getConnection()) {
                try (Statement s = c.createStatement()) {
                    s.execute("listen " + CHANNEL);
                }
                if (!first) {
                    notified.fire(JournalNotified.EVERY_STORE);
                }
                first = false;
                PGConnection pg = c.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] got = pg.getNotifications(1000);
                    if (got == null) {
                        if (c.isClosed()) {
                            break;
                        }
                        continue;
                    }
                    for (PGNotification n : got) {
                        if (n.getPID() == ownPid) {
                            continue;
                        }
                        for (String store : n.getParameter().split(",")) {
                            notified.fire(new JournalNotified(store));
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (running) {
                    LOG.debugf(e, "The journal listener lost its connection; opening another");
                    first = false;
                    pause(1000);
                }
            }
        }
    }

    private void pause(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
