package dev.engram.problems;

import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.Json;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An RFC 9457 problem: a stable {@code type} (a URI under {@link #TYPE_BASE} ending in {@link #slug}), the HTTP
 * status, a title per type, a detail that says what to do next, and the members a caller needs to act on it. Under
 * {@link ErrorEnvelope#PATH} it is rendered as Anthropic's error envelope instead.
 */
public record Problem(String slug, int status, String title, String detail, Map<String, Object> members,
        Map<String, String> headers) {

    public static final String TYPE_BASE = "https://engram.dev/problems/";
    public static final String MEDIA_TYPE = "application/problem+json";

    public Problem {
        members = Map.copyOf(members);
        headers = Map.copyOf(headers);
    }

    public static Problem of(String slug, int status, String title, String detail) {
        return new Problem(slug, status, title, detail, Map.of(), Map.of());
    }

    public Problem with(String member, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(members);
        more.put(member, value);
        return new Problem(slug, status, title, detail, more, headers);
    }

    public Problem header(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new Problem(slug, status, title, detail, members, more);
    }

    /** The response of this problem to a request for {@code instance}: problem+json, or the error envelope there. */
    public Response toResponse(String instance) {
        UriTag.unmatchedUnlessTemplated(); // refused before a resource matched: a pre-matching filter
        if (ErrorEnvelope.covers(instance)) {
            String id = ErrorEnvelope.requestId();
            Response.ResponseBuilder r = Response.status(ErrorEnvelope.status(this)).type("application/json")
                    .entity(ErrorEnvelope.body(this, instance, id));
            ErrorEnvelope.headers(this, id).forEach(r::header);
            return r.build();
        }
        if (HtmlProblem.covers(instance)) {
            Response.ResponseBuilder r = Response.status(status).type(HtmlProblem.MEDIA_TYPE)
                    .entity(HtmlProblem.page(this, instance));
            headers.forEach(r::header);
            return r.build();
        }
        Response.ResponseBuilder r = Response.status(status).type(MEDIA_TYPE).entity(body(instance));
        headers.forEach(r::header);
        return r.build();
    }

    /**
     * Answers a request refused before any resource sees it (a Vert.x route: authentication, quotas, the edges) with
     * this problem, as {@link #toResponse} answers one a resource refuses.
     */
    public Future<Void> send(RoutingContext ctx) {
        UriTag.unmatchedUnlessTemplated();
        String path = ctx.request().path();
        if (ErrorEnvelope.covers(path)) {
            String id = ErrorEnvelope.requestId();
            HttpServerResponse response = ctx.response().setStatusCode(ErrorEnvelope.status(this))
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
            ErrorEnvelope.headers(this, id).forEach(response::putHeader);
            return response.end(Json.encode(ErrorEnvelope.body(this, path, id)));
        }
        if (HtmlProblem.covers(path)) {
            HttpServerResponse page = ctx.response().setStatusCode(status)
                    .putHeader(HttpHeaders.CONTENT_TYPE, HtmlProblem.MEDIA_TYPE);
            headers.forEach(page::putHeader);
            return page.end(HtmlProblem.page(this, path));
        }
        HttpServerResponse response = ctx.response().setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, MEDIA_TYPE);
        headers.forEach(response::putHeader);
        return response.end(Json.encode(body(ctx.request().path())));
    }

    /** The problem's JSON members: the RFC 9457 ones, then this type's own, by name. */
    public Map<String, Object> body(String instance) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", TYPE_BASE + slug);
        body.put("title", title);
        body.put("status", status);
        body.put("detail", detail);
        if (instance != null) {
            body.put("instance", instance);
        }
        members.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(m -> body.put(m.getKey(), m.getValue()));
        return body;
    }
}
