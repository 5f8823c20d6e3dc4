package dev.engram.rest;

import dev.engram.problems.Problem;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * What happens at the edge, before a resource is chosen: a body declared over the HTTP limit is refused with a
 * 413 problem before it is read,
 * ({@code JournalAccept} gives a journal read that asks for no stream by name its JSON page).
 */
@ApplicationScoped
public class HttpEdges {

    @Inject
    BodyLimits limits;

    void refuseLargeBodies(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(ctx -> {
            long length = parse(ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH));
            if (length <= limits.least()) { // most requests: no body, or one under every path's limit
                ctx.next();
                return;
            }
            long limit = limits.of(ctx.normalizedPath());
            if (length <= limit) {
                ctx.next();
                return;
            }
            Problem.of("body-too-large", 413, "Body too large", "The body is " + length + " bytes, over this "
                    + "server's limit of " + limit + " bytes; send a smaller one.").with("size", length)
                    .with("limit", limit).header(HttpHeaders.CONNECTION.toString(), "close").send(ctx);
        });
    }

    private static long parse(String header) {
        try {
            return header == null ? -1 : Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
