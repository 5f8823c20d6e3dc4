package dev.engram.rest;

import dev.engram.problems.Problem;
import dev.engram.problems.RefusedBody;
import dev.engram.kernel.Invalid;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import dev.engram.kernel.IdempotencyKey;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Set;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

/**
 * Refusals made before a resource is chosen, of requests JAX-RS would otherwise read as other requests: a path
 * segment holding {@code ;} (a matrix parameter, which JAX-RS drops from the path parameter, so
 * {@code /v1/stores/demo;v=2/...} would act on store {@code demo}), a {@code ;} in the query (read as {@code &}),
 * and a write whose {@code If-Match} or
 * {@code If-None-Match} is sent empty (which would read as absent and make the write unconditional); and, once a
 * resource is chosen, an {@code Idempotency-Key} on a write that does not keep one.
 */
public class StrictRequests {

    private static final List<String> PRECONDITIONS = List.of("If-Match", "If-None-Match");

    /**
     * The refusals made before a resource is chosen, in this order, as one filter: each filter is a call through its
     * bean and Quarkus REST's filter chain on every request, and these four were about 0.4% of a point read.
     */
    @ServerRequestFilter(preMatching = true)
    public void refuseAmbiguousRequests(HttpServerRequest request) {
        refuseMalformedContentTypes(request);
        refuseMatrixParameters(request);
        refuseSemicolonsInTheQuery(request);
        refuseEmptyPreconditions(request);
    }

    /**
     * A {@code Content-Type} that is no media type, on any method (a {@code GET} too): JAX-RS would fail parsing it
     * while choosing the resource, an internal error.
     */
    static void refuseMalformedContentTypes(HttpServerRequest request) {
        for (String type : request.headers().getAll("Content-Type")) {
            try {
                MediaType.valueOf(type);
            } catch (IllegalArgumentException e) {
                String shown = type.length() > 80 ? type.substring(0, 80) + "..." : type;
                throw new RefusedBody(Problem.of("malformed", 400, "Malformed request", "The Content-Type \""
                        + shown.replaceAll("[^\\x20-\\x7e]", "?") + "\" is not a media type; send "
                        + "application/json (or none without a body).").with("rule", "content-type")
                        .with("field", "Content-Type"));
            }
        }
    }

    static void refuseMatrixParameters(HttpServerRequest request) {
        String raw = request.path();
        if (raw == null || raw.indexOf(';') < 0) {
            return;
        }
        for (String segment : raw.split("/")) {
            if (segment.indexOf(';') >= 0) {
                String shown = segment.length() > 80 ? segment.substring(0, 80) + "..." : segment;
                throw new Invalid("path-segment", "path", "Path segment \"" + shown.replaceAll("[^\\x20-\\x7e]", "?")
                        + "\" is not an ID: a path takes each ID exactly, kebab-case, with no ;parameters.");
            }
        }
    }

    /**
     * A query holding a raw {@code ;}: the server splits parameters at {@code ;} as at {@code &}, so
     * {@code ?scope=a;b} would be read as the scope {@code a}. An encoded {@code %3B} is a character of a value.
     */
    static void refuseSemicolonsInTheQuery(HttpServerRequest request) {
        String query = request.query();
        if (query != null && query.indexOf(';') >= 0) {
            throw new Invalid("query-form", "query", "The query holds ';', which would split a parameter in two; "
                    + "separate parameters with '&', and send a ';' inside a value as %3B.");
        }
    }

    /**
     * The routes that keep an {@code Idempotency-Key} (a retry is answered with the first answer, marked
     * {@code Idempotent-Replayed}), as resource and method: entries, memory saves, tool calls and every context change.
     */
    static final Set<String> KEPT = Set.of("EntryResource.put", "EntryResource.patch", "EntryResource.forget",
            "MemoryResource.save", "MemoryResource.saveBatch", "MemoryResource.put", "ToolsResource.call",
            "ContextResource.configure", "ContextResource.delete", "ContextResource.systemPrompt",
            "ContextResource.plan", "ContextResource.task", "ContextResource.priorConversation",
            "ContextResource.interjection", "ContextResource.consumeInterjection", "ContextResource.appendSteps",
            "ContextResource.replaceSteps", "ContextResource.tokenCount", "ContextResource.compact",
            "ContextResource.cacheToolResult", "MemoryToolResource.call");

    /** {@code POST} routes that only compute an answer from their body and write nothing: a key is ignored. */
    static final Set<String> PURE = Set.of("CompactResource.compact", "ManifestResource.recordSince",
            "ManifestResource.apply", "ManifestResource.fold");

    /**
     * An {@code Idempotency-Key} on any other write (every route but {@code GET} and {@code HEAD}): refused rather
     * than ignored, so that a caller never believes a retry is safe when it is not (a second {@code /revisions} would
     * append twice). Decided on the route the request matched, so a new write route refuses a key until it keeps one.
     */
    @ServerRequestFilter
    public void refuseKeysWhereNotKept(HttpServerRequest request, SimpleResourceInfo route) {
        if (request.method() == HttpMethod.GET || request.method() == HttpMethod.HEAD
                || request.getHeader(IdempotencyKey.HEADER) == null || route == null
                || route.getResourceClass() == null) {
            return;
        }
        String name = route.getResourceClass().getSimpleName() + "." + route.getMethodName();
        if (!KEPT.contains(name) && !PURE.contains(name)) {
            throw keyNotTaken(request.method() + " " + request.path());
        }
    }

    /** The refusal of a key sent to {@code request} (its method and path), which keeps none. */
    public static Invalid keyNotTaken(String request) {
        return new Invalid("idempotency-key-not-taken", IdempotencyKey.HEADER,
                request.replaceAll("[^\\x20-\\x7e]", "?") + " takes no Idempotency-Key: it is not made at most once under one (docs/api.md lists the writes "
                + "that are). Send the request without it.");
    }

    static void refuseEmptyPreconditions(HttpServerRequest request) {
        if (request.method() == HttpMethod.GET || request.method() == HttpMethod.HEAD) {
            return;
        }
        for (String name : PRECONDITIONS) {
            for (String value : request.headers().getAll(name)) {
                if (value.isBlank()) {
                    throw new Invalid(name.toLowerCase(java.util.Locale.ROOT) + "-form", name, name + " is empty. "
                            + "Send the ETag a read returned (If-Match) or * (If-None-Match), or leave the header "
                            + "out for a write without a precondition.");
                }
            }
        }
    }
}
