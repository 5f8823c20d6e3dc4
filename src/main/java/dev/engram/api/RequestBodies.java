package dev.engram.api;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.vertx.VertxInputStream;

/**
 * Reads every REST body before it is parsed: at most the HTTP limit, which a body sent in chunks, with no
 * Content-Length for {@link HttpEdges} to check first, can only be held to as it is read (refused with the
 * {@code body-too-large} problem, where the server's own check would answer a bare 413); and strictly UTF-8
 * ({@link StrictUtf8}), since the JSON parser would also read UTF-16, UTF-32 and overlong forms.
 */
@Provider
@ApplicationScoped
public class RequestBodies implements ReaderInterceptor {

    @ConfigProperty(name = "quarkus.http.limits.max-body-size")
    MemorySize maxBodySize;

    /** Takes the chunked body's limit over from the server, whose refusal has no body; runs after it sets it. */
    void holdChunkedBodies(@Observes Router router) {
        router.route().order(-1).handler(ctx -> {
            ctx.remove(VertxInputStream.MAX_REQUEST_SIZE_KEY);
            ctx.next();
        });
    }

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        long limit = maxBodySize.asLongValue();
        byte[] body = context.getInputStream().readNBytes((int) Math.min(limit + 1, Integer.MAX_VALUE - 8));
        if (body.length > limit) {
            throw new RefusedBody(Problem.of("body-too-large", 413, "Body too large", "The body is over this "
                    + "server's limit of " + limit + " bytes; send a smaller one.").with("limit", limit)
                    .header("Connection", "close"));
        }
        int bad = StrictUtf8.firstInvalid(body);
        if (bad >= 0) {
            throw new RefusedBody(Problem.of("malformed", 400, "Malformed body", "The body is not UTF-8: "
                    + (body[bad] == 0 ? "a NUL byte" : "an invalid or overlong sequence") + " at byte " + bad
                    + ". Send JSON encoded as UTF-8, not UTF-16 or UTF-32.").with("rule", "body-encoding")
                    .with("field", ""));
        }
        context.setInputStream(new ByteArrayInputStream(body));
        return context.proceed();
    }
}
