package dev.engram.mcp;

import dev.engram.journal.persistence.JournalAppended;
import dev.engram.journal.persistence.JournalNotified;
import io.quarkiverse.mcp.server.runtime.ConnectionManager;
import io.quarkiverse.mcp.server.runtime.McpConnectionBase;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Subscriptions to {@code memory://block}: which MCP connection (its session id, or the legacy transport's
 * connection id) subscribed, in which store. When that store's journal moves, by a write through this replica
 * ({@link JournalAppended}: MCP or REST) or through another one ({@link JournalNotified}, PostgreSQL LISTEN/NOTIFY),
 * each subscriber of the store is sent {@code notifications/resources/updated}, on its event stream, as the write
 * commits. The MCP server keeps its own subscription list by URI alone, which cannot tell one store's block from
 * another's, so Engram keeps this one, and a connection is only told of writes to its own store. A subscription ends
 * with {@code resources/unsubscribe} or with its connection.
 */
@ApplicationScoped
public class McpSubscriptions {

    private static final Logger LOG = Logger.getLogger(McpSubscriptions.class);

    /** Connection id to the store whose block it subscribed to. */
    private final Map<String, String> subscribers = new ConcurrentHashMap<>();

    @Inject
    ConnectionManager connections;

    void subscribe(String connection, String store) {
        subscribers.put(connection, store);
    }

    void unsubscribe(String connection) {
        subscribers.remove(connection);
    }

    void onAppended(@Observes JournalAppended appended) {
        notify(appended.store());
    }

    void onNotified(@Observes JournalNotified notified) {
        notify(notified.store());
    }

    /** Tells each subscriber of {@code store} (of every store when it is empty) that its block may have changed. */
    private void notify(String store) {
        if (subscribers.isEmpty()) {
            return;
        }
        subscribers.forEach((id, subscribed) -> {
            if (!store.isEmpty() && !store.equals(subscribed)) {
                return;
            }
            McpConnectionBase connection = connections.get(id);
            if (connection == null) {
                subscribers.remove(id);
                return;
            }
            connection.send(new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/resources/updated")
                    .put("params", new JsonObject().put("uri", McpMemoryServer.BLOCK_URI)))
                    .onFailure(e -> LOG.debugf(e, "Could not tell MCP connection %s of a write to %s", id, store));
        });
    }
}
