package dev.engram.mcp;

import dev.engram.access.rest.Authentication;
import dev.engram.access.Caller;
import dev.engram.problems.Problem;
import dev.engram.problems.Problems;
import dev.engram.kernel.Limited;
import dev.engram.ops.EngramConfig;
import io.quarkiverse.mcp.server.http.runtime.SseMcpConnection;
import io.quarkiverse.mcp.server.runtime.ConnectionManager;
import io.quarkiverse.mcp.server.runtime.McpConnectionBase;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The MCP sessions each key holds open on this replica, at most {@code engram.limits.mcp-sessions-per-key}: the
 * streamable sessions it initialised that the MCP server still keeps (until the client deletes them or they idle
 * out), and its open legacy SSE connections. One more is refused with the quota problem; the operator key is not
 * counted. Each session answers only the caller that opened it (its key id, or its token's subject): another
 * caller sending its id, on either transport, gets the 404 of an unknown session.
 */
@ApplicationScoped
public class McpSessions {

    private static final String SESSION_HEADER = "Mcp-Session-Id";

    @Inject
    ConnectionManager connections;

    @Inject
    EngramConfig config;

    private final Map<String, Set<String>> sessions = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> streams = new ConcurrentHashMap<>();
    /** Which caller opened each session: a session answers only the caller that opened it. */
    private final Map<String, String> owners = new ConcurrentHashMap<>();
    private final Object legacyOpening = new Object();
    private static final int PRUNE_AT = 1024;
    private volatile int pruneAt = PRUNE_AT;

    void install(@Observes Router router) {
        router.route("/mcp").order(Integer.MIN_VALUE + 2).handler(this::streamable);
        router.route("/mcp/sse").order(Integer.MIN_VALUE + 2).handler(this::legacy);
        router.route("/mcp/messages/:session").order(Integer.MIN_VALUE + 2).handler(this::legacyMessage);
    }

    /** Whether {@code session} is open on this replica and was opened by {@code caller}. */
    boolean ownedBy(String session, Caller caller) {
        if (!connections.has(session)) {
            owners.remove(session);
            return false;
        }
        return caller.id().equals(owners.get(session));
    }

    private void own(String session, Caller caller) {
        owners.put(session, caller.id());
        if (owners.size() > pruneAt) {
            owners.keySet().removeIf(id -> !connections.has(id));
            pruneAt = Math.max(PRUNE_AT, owners.size() * 2);
        }
    }

    /**
     * The answer to a session id that is not open here or was opened by another caller: the same in both cases,
     * so that an id says nothing about whether another key holds it.
     */
    private static void unknown(RoutingContext ctx, String session) {
        String shown = session.length() > 80 ? session.substring(0, 80) + "..." : session;
        Problem.of("mcp-session-unknown", 404, "MCP session unknown", "No MCP session " + shown
                + " is open on this server: it ended, idled out, or was opened on a server that restarted. Send "
                + "initialize again without Mcp-Session-Id to open a new one.").with("session", shown).send(ctx);
    }

    /** How many sessions {@code caller} holds open on this replica now. */
    int held(String caller) {
        Set<String> ids = sessions.get(caller);
        if (ids != null) {
            ids.removeIf(id -> !connections.has(id));
        }
        AtomicInteger open = streams.get(caller);
        return (ids == null ? 0 : ids.size()) + (open == null ? 0 : open.get());
    }

    private void streamable(RoutingContext ctx) {
        Caller caller = ctx.get(Authentication.CALLER);
        String session = ctx.request().getHeader(SESSION_HEADER);
        if (caller != null && session != null && !ownedBy(session, caller)) {
            unknown(ctx, session);
            return;
        }
        boolean opens = ctx.request().method().name().equals("POST") && session == null;
        if (caller == null || !opens) {
            ctx.next();
            return;
        }
        if (!caller.operatorKey() && refused(ctx, caller)) {
            return;
        }
        ctx.addHeadersEndHandler(v -> {
            String id = ctx.response().headers().get(SESSION_HEADER);
            if (id != null) {
                own(id, caller);
                if (!caller.operatorKey()) {
                    sessions.computeIfAbsent(caller.id(), k -> ConcurrentHashMap.newKeySet()).add(id);
                }
            }
        });
        ctx.next();
    }

    private void legacy(RoutingContext ctx) {
        Caller caller = ctx.get(Authentication.CALLER);
        if (caller == null || !ctx.request().method().name().equals("GET")) {
            ctx.next();
            return;
        }
        if (!caller.operatorKey()) {
            if (refused(ctx, caller)) {
                return;
            }
            AtomicInteger open = streams.computeIfAbsent(caller.id(), k -> new AtomicInteger());
            open.incrementAndGet();
            ctx.addEndHandler(done -> open.decrementAndGet());
        }
        // The legacy transport names its session only inside the stream (the endpoint event); the connection the
        // MCP server adds while it opens this stream, which it does before the handler returns, is this caller's.
        synchronized (legacyOpening) {
            Set<String> before = legacyConnections();
            ctx.next();
            for (String id : legacyConnections()) {
                if (!before.contains(id)) {
                    own(id, caller);
                }
            }
        }
    }

    private void legacyMessage(RoutingContext ctx) {
        Caller caller = ctx.get(Authentication.CALLER);
        String session = ctx.pathParam("session");
        if (caller != null && session != null && !ownedBy(session, caller)) {
            unknown(ctx, session);
            return;
        }
        ctx.next();
    }

    private Set<String> legacyConnections() {
        Set<String> ids = new HashSet<>();
        for (McpConnectionBase c : connections) {
            if (c instanceof SseMcpConnection) {
                ids.add(c.id());
            }
        }
        return ids;
    }

    private boolean refused(RoutingContext ctx, Caller caller) {
        int max = config.limits().mcpSessionsPerKey();
        if (held(caller.id()) < max) {
            return false;
        }
        Problems.limited(new Limited(Limited.Kind.QUOTA, "mcp-sessions-per-key", max, 0, "This key "
                + "already holds " + max + " MCP sessions open on this replica. End one (DELETE /mcp with its "
                + "Mcp-Session-Id) or let an idle one expire, then initialise again.")).send(ctx);
        return true;
    }
}
