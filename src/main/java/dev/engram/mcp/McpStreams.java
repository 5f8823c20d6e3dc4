package dev.engram.mcp;

import dev.engram.problems.Problems;
import dev.engram.ops.ShutdownDelay;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The MCP event streams open on this replica: the legacy SSE transport's {@code GET /mcp/sse} and the streamable
 * transport's {@code GET /mcp}. Neither ends by itself, and the MCP server does not end them when the process shuts
 * down, so each would hold the shutdown to {@code quarkus.shutdown.timeout}. When the shutdown delay is over they are
 * ended (the client sees its stream end and connects again, to a replica in service, where its session is unknown:
 * sessions live in the replica that opened them), and new ones are refused with 503 and Retry-After.
 */
@ApplicationScoped
public class McpStreams {

    /** After authentication and the session quota ({@code McpSessions}). */
    static final int ORDER = Integer.MIN_VALUE + 3;

    private final Set<HttpServerResponse> open = ConcurrentHashMap.newKeySet();
    private volatile boolean leaving;

    void install(@Observes Router router) {
        router.get("/mcp").order(ORDER).handler(this::opening);
        router.get("/mcp/sse").order(ORDER).handler(this::opening);
    }

    void leave(@Observes ShutdownDelay.Over over) {
        leaving = true;
        for (HttpServerResponse r : open) {
            open.remove(r);
            try {
                if (!r.ended() && !r.closed()) {
                    r.end();
                }
            } catch (IllegalStateException alreadyEnded) {
                // the stream ended meanwhile
            }
        }
    }

    private void opening(RoutingContext ctx) {
        HttpServerResponse response = ctx.response();
        open.add(response);
        if (leaving) {
            if (open.remove(response)) { // else leave() has it, and ends it
                Problems.limited(ShutdownDelay.refusal("MCP event streams")).send(ctx);
            }
            return;
        }
        ctx.addEndHandler(done -> open.remove(response));
        ctx.next();
    }
}
