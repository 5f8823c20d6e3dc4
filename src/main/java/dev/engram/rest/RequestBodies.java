package dev.engram.rest;

import dev.engram.problems.Problem;
import dev.engram.problems.UriTag;
import dev.engram.ops.EngramConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.util.Locale;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Request bodies, read before a worker thread is given the request. The REST resources are blocking, and Quarkus
 * REST reads a blocking resource's body on the worker that runs it, so a client sending a byte a second held a
 * worker for as long as it liked, and 200 such clients held them all. A pre-matching filter, which runs on the event
 * loop, now reads the body without blocking anyone and hands the resource the whole of it (the {@code /mcp} server
 * reads its own the same way). Every body must arrive within {@code engram.http.body-timeout} of its headers; one
 * that does not is answered 408 and its connection closed.
 */
@ApplicationScoped
public class RequestBodies {

    /** After {@link BrowserEdges}: a refused request's body is never waited for. */
    static final int ORDER = BrowserEdges.ORDER + 1;

    @Inject
    BodyLimits limits;

    void deadline(@Observes Router router, EngramConfig config) {
        long timeout = config.http().bodyTimeout().toMillis();
        router.route().order(ORDER).handler(ctx -> {
            HttpServerRequest request = ctx.request();
            if (declaresBody(request)) {
                if (ctx.normalizedPath().startsWith("/v1/")) {
                    UriTag.unmatched(); // until the resource is matched, which replaces it
                }
                long timer = ctx.vertx().setTimer(timeout, id -> tooSlow(ctx, timeout));
                ctx.addEndHandler(done -> {
                    if (request.isEnded()) {
                        ctx.vertx().cancelTimer(timer);
                    }
                });
            }
            ctx.next();
        });
    }

    /**
     * Reads the whole body before the resource is matched; a body over the limit (sent in chunks) is refused. A
     * request with no body to read gets no {@code Uni} (null), so Quarkus REST goes on without suspending the request
     * and resuming it: a subscription per bodiless request was 1.6% of a point read's CPU.
     */
    @ServerRequestFilter(preMatching = true)
    public Uni<Response> readBody(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (!declaresBody(request) || request.isEnded() || ctx.getBody() != null) {
            return null;
        }
        long limit = limits.of(ctx.normalizedPath());
        return Uni.createFrom().emitter(emitter -> {
            Buffer body = Buffer.buffer();
            boolean[] refused = {false};
            request.handler(chunk -> {
                if (refused[0]) {
                    return;
                }
                if (body.length() + chunk.length() > limit) {
                    refused[0] = true;
                    emitter.complete(Problem.of("body-too-large", 413, "Body too large", "The body is over this "
                            + "server's limit of " + limit + " bytes; send a smaller one.").with("limit", limit)
                            .header(HttpHeaders.CONNECTION.toString(), "close").toResponse(request.path()));
                    return;
                }
                body.appendBuffer(chunk);
            });
            request.endHandler(end -> {
                if (!refused[0]) {
                    ctx.setBody(body);
                    emitter.complete(null);
                }
            });
            request.exceptionHandler(e -> {
                if (!refused[0]) {
                    refused[0] = true; // the client went away; nobody will read the answer
                    emitter.complete(Problem.of("malformed", 400, "Malformed body", "The connection closed before "
                            + "the body was complete.").with("rule", "body-incomplete").with("field", "")
                            .toResponse(request.path()));
                }
            });
            if (request.version() == HttpVersion.HTTP_1_1
                    && "100-continue".equalsIgnoreCase(request.getHeader(HttpHeaders.EXPECT))) {
                ctx.response().writeContinue();
            }
            request.resume();
        });
    }

    /** Whether the request says a body follows: a positive Content-Length, or chunks. */
    static boolean declaresBody(HttpServerRequest request) {
        String encoding = request.getHeader(HttpHeaders.TRANSFER_ENCODING);
        if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            return true;
        }
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        try {
            return length != null && Long.parseLong(length.trim()) > 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The body is still coming at the deadline: answer 408 if nothing was answered yet, and disconnect. */
    private static void tooSlow(RoutingContext ctx, long timeout) {
        HttpServerRequest request = ctx.request();
        if (request.isEnded() || ctx.response().closed()) {
            return;
        }
        if (ctx.response().headWritten()) {
            disconnect(request);
            return;
        }
        BrowserEdges.refuse(ctx, Problem.of("body-timeout", 408, "Body too slow", "The body did not arrive within "
                + timeout + " ms of the request's headers; send it at once.").with("timeout_ms", timeout));
    }

    /** Closes the request's connection (HTTP/1), or resets its stream (HTTP/2, whose connection others share). */
    static void disconnect(HttpServerRequest request) {
        if (request.version() == HttpVersion.HTTP_2) {
            try {
                request.response().reset(0);
            } catch (IllegalStateException alreadyClosed) {
                // the stream is gone already
            }
        } else {
            request.connection().close();
        }
    }
}
