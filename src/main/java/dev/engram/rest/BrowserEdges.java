package dev.engram.rest;

import dev.engram.problems.ErrorEnvelope;
import dev.engram.problems.Problem;
import dev.engram.ops.EngramConfig;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a page on another site can make a browser do to Engram: nothing that writes. Before any resource or the MCP
 * server sees a request, {@code /mcp} refuses an {@code Origin} that {@code engram.mcp.allowed-origins} does not
 * name (403; the MCP transport requires the check, against DNS rebinding), and a write under {@code /v1/} or to
 * {@code /mcp} that is not {@code application/json} is refused with 415, so the requests a browser sends across
 * origins without asking (a form, {@code text/plain}, or no body at all) are refused; a store's import takes
 * {@code application/gzip} instead, which a browser cannot send across origins without a preflight either. Requests without an Origin
 * (agents, SDKs, curl) pass. CORS stays off unless {@code quarkus.http.cors} is configured.
 */
@ApplicationScoped
public class BrowserEdges {

    /** Right after the body-size check of {@link HttpEdges}. */
    static final int ORDER = Integer.MIN_VALUE + 1;

    private static final Set<HttpMethod> WRITES = Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH);

    void install(@Observes Router router, EngramConfig config) {
        Set<String> allowed = config.mcp().allowedOrigins().orElse(List.of()).stream().map(BrowserEdges::origin)
                .collect(Collectors.toUnmodifiableSet());
        router.route().order(ORDER).handler(ctx -> {
            String path = ctx.normalizedPath();
            boolean mcp = path.equals("/mcp") || path.startsWith("/mcp/");
            HttpServerRequest request = ctx.request();
            String origin = request.getHeader(HttpHeaders.ORIGIN);
            if (mcp && origin != null && !allowed.contains(origin(origin))) {
                refuse(ctx, Problem.of("origin-refused", 403, "Origin not allowed", "This server does not take MCP "
                        + "requests from pages of " + origin + ". Its operator can allow that origin in "
                        + "ENGRAM_MCP_ALLOWED_ORIGINS.").with("origin", origin));
                return;
            }
            String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
            if ((mcp || path.startsWith("/v1/")) && WRITES.contains(request.method()) && !isJson(type)
                    && !(isImport(path) && isGzip(type)) && !anthropicWithoutBody(path, request, type)) {
                refuse(ctx, Problem.of("unsupported-media-type", 415, "Unsupported media type", (type == null
                        ? "The request has no Content-Type." : "The request's Content-Type is " + type + ".")
                        + (isImport(path) ? " Send the archive as Content-Type: application/gzip." : " Send "
                        + "Content-Type: application/json (UTF-8, no other charset), also on a write without a body."))
                        .with("content_type", type == null ? "" : type));
                return;
            }
            ctx.next();
        });
    }

    /**
     * A write of the Memory Stores API with no body and no Content-Type, as Anthropic's SDKs send an archive or a
     * redaction: it carries {@code anthropic-beta}, a header a browser sends across origins only after a preflight
     * (which CORS, off, refuses), so no page can make a browser send it.
     */
    private static boolean anthropicWithoutBody(String path, HttpServerRequest request, String type) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        return type == null && ErrorEnvelope.covers(path) && request.getHeader("anthropic-beta") != null
                && (length == null || length.trim().equals("0"));
    }

    /**
     * {@code application/json}, with no parameter or only {@code charset=utf-8}: JSON is UTF-8 (RFC 8259), and a body
     * that says it is another charset would be read as something it is not.
     */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String[] parts = contentType.split(";", -1);
        if (!parts[0].trim().equalsIgnoreCase("application/json")) {
            return false;
        }
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].trim().toLowerCase(Locale.ROOT).replace("\"", "");
            if (!parameter.isEmpty() && !parameter.equals("charset=utf-8")) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code path} is a store's import, whose body is an archive ({@code application/gzip}): a type no page
     * can send across origins without the browser asking first (it is not a CORS-safelisted one).
     */
    static boolean isImport(String path) {
        return path.startsWith("/v1/stores/") && path.endsWith("/import") && path.chars().filter(c -> c == '/')
                .count() == 4;
    }

    /** {@code application/gzip}; a parameter (a charset some clients add) says nothing of bytes and is ignored. */
    static boolean isGzip(String contentType) {
        return contentType != null && contentType.split(";", -1)[0].trim().equalsIgnoreCase("application/gzip");
    }

    /** An origin as compared: lower case, without a trailing slash. */
    static String origin(String origin) {
        String o = origin.trim().toLowerCase(Locale.ROOT);
        return o.endsWith("/") ? o.substring(0, o.length() - 1) : o;
    }

    /** Answers with the problem; a body that was sent is not read, so then the connection is closed. */
    static void refuse(RoutingContext ctx, Problem p) {
        HttpServerRequest request = ctx.request();
        boolean unread = RequestBodies.declaresBody(request);
        if (unread) {
            ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
        }
        p.send(ctx).onComplete(written -> {
            if (unread && !request.isEnded()) {
                RequestBodies.disconnect(request);
            }
        });
    }
}
