package dev.engram.rest;

import dev.engram.problems.Problem;
import dev.engram.problems.Problems;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The one handler that answers what the HTTP layer refuses, as a problem: a method the operational endpoints under
 * {@code /q/} do not take, and every failure or status the router or a Vert.x route raises (its failure handler,
 * and the router's error handlers), such as a request without {@code Host}, which Vert.x Web fails with 400 before
 * it routes; a 4xx by its status, anything else through {@link Problems#problem}. A refusal that leaves a body
 * unread closes the connection, since the next request on it could not be told from the rest of that body.
 *
 * <p>What Vert.x refuses while decoding the request head (a request line over the limit, NUL or DEL in a header, a
 * duplicate or negative {@code Content-Length}, {@code Content-Length} with {@code Transfer-Encoding}) never reaches
 * a route; {@link DecodeRefusals} answers it as a problem in the connection's Netty pipeline.
 */
@ApplicationScoped
public class HttpRefusals {

    private static final Logger LOG = Logger.getLogger(HttpRefusals.class);

    /** Before the body-size check of {@link HttpEdges}. */
    static final int ORDER = Integer.MIN_VALUE;

    private static final Set<HttpMethod> OPERATIONAL = Set.of(HttpMethod.GET, HttpMethod.HEAD);

    void install(@Observes Router router) {
        router.route().order(ORDER).handler(this::refuseAtTheEdge).failureHandler(this::failed);
        for (int status : new int[] {400, 404, 405, 413, 414, 415, 431, 500, 503}) {
            router.errorHandler(status, this::failed);
        }
    }

    private void refuseAtTheEdge(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        if ((path.equals("/q") || path.startsWith("/q/")) && !OPERATIONAL.contains(ctx.request().method())) {
            send(ctx, Problem.of("method-not-allowed", 405, "Method not allowed", "The operational endpoints under "
                    + "/q/ only answer GET and HEAD.").with("method", ctx.request().method().name())
                    .header(HttpHeaders.ALLOW.toString(), "GET, HEAD"));
            return;
        }
        ctx.next();
    }

    /** A route failed, or the router found none to take the request: the failure's problem, or its status's. */
    private void failed(RoutingContext ctx) {
        if (ctx.response().headWritten()) {
            if (ctx.failure() != null) {
                LOG.debugf(ctx.failure(), "Failed after its answer began: %s %s", ctx.request().method(),
                        ctx.request().path());
            }
            ctx.response().reset();
            return;
        }
        int status = ctx.statusCode();
        Problem p;
        if (status == 400 && ctx.request().host() == null) {
            p = Problem.of("host-missing", 400, "Host missing", "The request has no Host header; HTTP/1.1 requires "
                    + "one. Send Host: with the server's name and port.");
        } else if (status >= 400 && status < 500 || ctx.failure() == null) {
            p = Problems.web(status < 400 ? 500 : status);
        } else {
            p = Problems.problem(ctx.failure());
        }
        if (p.status() < 500) {
            LOG.debugf("Refused %s %s with %d %s: %s", ctx.request().method(), ctx.request().path(), p.status(),
                    p.slug(), p.detail());
        }
        send(ctx, p);
    }

    /** Answers with {@code p}, closing the connection when the request's body was not read to its end. */
    static void send(RoutingContext ctx, Problem p) {
        (ctx.request().isEnded() ? p : p.header(HttpHeaders.CONNECTION.toString(), "close")).send(ctx);
    }
}
