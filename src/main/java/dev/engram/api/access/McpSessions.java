package dev.engram.api.access;

import dev.engram.access.Caller;
import dev.engram.api.Problem;
import dev.engram.api.Problems;
import dev.engram.memory.Limited;
import dev.engram.ops.EngramConfig;
import io.quarkiverse.mcp.server.runtime.ConnectionManager;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The MCP sessions each key holds open on this replica, at most {@code engram.limits.mcp-sessions-per-key}: the
 * streamable sessions it initialised that the MCP server still keeps (until the client deletes them or they idle
 * out), and its open legacy SSE connections. One more is refused with the quota problem; the operator key is not
 * counted.
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

    void install(@Observes Router router) {
        router.route("/mcp").order(Integer.MIN_VALUE + 2).handler(this::streamable);
        router.route("/mcp/sse").order(Integer.MIN_VALUE + 2).handler(this::legacy);
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
        if (caller != null && session != null && !connections.has(session)) {
            String shown = session.length() > 80 ? session.substring(0, 80) + "..." : session;
            Problem.of("mcp-session-unknown", 404, "MCP session unknown", "No MCP session " + shown
                    + " is open on this server: it ended, idled out, or was opened on a server that restarted. Send "
                    + "initialize again without Mcp-Session-Id to open a new one.").with("session", shown).send(ctx);
            return;
        }
        boolean opens = ctx.request().method().name().equals("POST") && session == null;
        if (caller == null || caller.operatorKey() || !opens) {
            ctx.next();
            return;
        }
        if (refused(ctx, caller)) {
            return;
        }
        ctx.addHeadersEndHandler(v -> {
            String id = ctx.response().headers().get(SESSION_HEADER);
            if (id != null) {
                sessions.computeIfAbsent(caller.id(), k -> ConcurrentHashMap.newKeySet()).add(id);
            }
        });
        ctx.next();
    }

    private void legacy(RoutingContext ctx) {
        Caller caller = ctx.get(Authentication.CALLER);
        if (caller == null || caller.operatorKey() || !ctx.request().method().name().equals("GET")) {
            ctx.next();
            return;
        }
        if (refused(ctx, caller)) {
            return;
        }
        AtomicInteger open = streams.computeIfAbsent(caller.id(), k -> new AtomicInteger());
        open.incrementAndGet();
        ctx.addEndHandler(done -> open.decrementAndGet());
        ctx.next();
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
