package dev.engram.problems;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.engram.access.Denied;
import dev.engram.kernel.ContextChanged;
import dev.engram.kernel.SummaryFailed;
import dev.engram.kernel.ArchiveRefused;
import dev.engram.kernel.Budget;
import dev.engram.kernel.Conflict;
import dev.engram.kernel.DocumentRefused;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Limited;
import dev.engram.kernel.ReflectionFailed;
import dev.engram.kernel.KeyReused;
import dev.engram.kernel.EngramException;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.TooLarge;
import dev.engram.persistence.StoreUnavailable;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Response;
import java.sql.SQLException;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The one mapping of errors to HTTP. Every failure leaves as an RFC 9457 {@code application/problem+json} body
 * built by {@link #problem}; the mapper methods below only name the exception types Quarkus dispatches on. No
 * response carries a stack trace or a class name. A client's mistake (a 4xx) is logged at DEBUG; only a fault of the
 * service (a 500) is logged at ERROR, with its stack trace and the id the response names.
 */
public class Problems {

    private static final Logger LOG = Logger.getLogger(Problems.class);

    @Inject
    WriteOutcomes outcomes;

    @ServerExceptionMapper
    public Response refusal(EngramException e, HttpServerRequest request, ResourceInfo route) {
        return respond(e, request, route);
    }

    @ServerExceptionMapper
    public Response json(JacksonException e, HttpServerRequest request, ResourceInfo route) {
        return respond(e, request, route);
    }

    @ServerExceptionMapper
    public Response mismatched(MismatchedInputException e, HttpServerRequest request, ResourceInfo route) {
        return respond(e, request, route);
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, HttpServerRequest request, ResourceInfo route) {
        return respond(e, request, route);
    }

    @ServerExceptionMapper
    public Response unavailable(StoreUnavailable e, HttpServerRequest request, ResourceInfo route) {
        return respond(e, request, route);
    }

    @ServerExceptionMapper
    public Response other(Throwable e, HttpServerRequest request, ResourceInfo route) {
        return respond(e, request, route);
    }

    private Response respond(Throwable e, HttpServerRequest request, ResourceInfo route) {
        Problem p = reads(request, route) ? problemOfRead(e) : problem(e);
        if (p.status() < 500) {
            LOG.debugf("Refused %s %s with %d %s: %s", request == null ? "" : request.method(),
                    request == null ? "" : request.path(), p.status(), p.slug(), p.detail());
        }
        outcomes.refused(request, p);
        return p.toResponse(request == null ? null : request.path());
    }

    private static final Set<HttpMethod> READS = Set.of(HttpMethod.GET, HttpMethod.HEAD);

    /** Whether the request only reads: a GET or HEAD, or a route marked {@link ReadOnly}. */
    private static boolean reads(HttpServerRequest request, ResourceInfo route) {
        if (request != null && READS.contains(request.method())) {
            return true;
        }
        java.lang.reflect.Method m = route == null ? null : route.getResourceMethod();
        return m != null && (m.isAnnotationPresent(ReadOnly.class)
                || m.getDeclaringClass().isAnnotationPresent(ReadOnly.class));
    }

    /**
     * What a failure of a read (GET, HEAD) means to the caller: as {@link #problem}, except that a database lost or a
     * statement cancelled is said to be a read that can simply be retried, not a write that may have landed.
     */
    static Problem problemOfRead(Throwable e) {
        Problem p = problem(e);
        return !p.slug().equals("unavailable") ? p : Problem.of("unavailable", 503, "Database unavailable", "Engram "
                + "lost its database, or its statement took too long, while serving this read; nothing was written. "
                + "Retrying is safe: retry after the number of seconds in Retry-After, perhaps with a smaller limit.")
                .header("Retry-After", "2");
    }

    /** What a failure means to the caller. */
    public static Problem problem(Throwable e) {
        if (e instanceof EngramException r) {
            return refusal(r);
        }
        if (e instanceof WebApplicationException w && w.getCause() instanceof RefusedBody b) {
            return b.problem();
        }
        if (e instanceof RefusedBody b) {
            return b.problem();
        }
        if (e instanceof Denied d) {
            return forbidden(d);
        }
        if (e instanceof WebApplicationException w && w.getCause() instanceof JacksonException j) {
            return json(j);
        }
        if (e instanceof JacksonException j) {
            return json(j);
        }
        if (e instanceof WebApplicationException w) {
            return web(w.getResponse().getStatus());
        }
        if (lostConnection(e)) {
            return Problem.of("unavailable", 503, "Database unavailable", "Engram lost its database while "
                    + "serving this request, so a write may or may not have landed: the connection can drop after "
                    + "the commit. Retry after the number of seconds in Retry-After with the same Idempotency-Key "
                    + "(and the same If-Match, if you sent one): a write that landed is then answered, not made "
                    + "twice.").header("Retry-After", "2");
        }
        String id = UUID.randomUUID().toString();
        LOG.errorf(e, "Request failed (error %s)", id);
        return Problem.of("internal", 500, "Internal error", "Engram failed on this request; it is logged as "
                + "error " + id + ". Retry, and report it if it persists.").with("error_id", id);
    }

    private static Problem refusal(EngramException e) {
        if (e instanceof Invalid i) {
            return Problem.of("invalid", 422, "Invalid request", i.getMessage())
                    .with("rule", i.rule()).with("field", i.field());
        }
        if (e instanceof TooLarge t) {
            return Problem.of("too-large", 413, "Entry over the size limit", t.getMessage())
                    .with("scope", t.scope().value()).with("name", t.name())
                    .with("size", t.size()).with("limit", t.limit()).with("stored", t.stored());
        }
        if (e instanceof Conflict c) {
            return Problem.of("precondition-failed", 412, "Entry changed", c.getMessage())
                    .with("scope", c.scope().value()).with("name", c.name())
                    .with("want", c.want()).with("have", c.have());
        }
        if (e instanceof KeyReused) {
            return Problem.of("idempotency-key-reused", 422, "Idempotency key reused", e.getMessage());
        }
        if (e instanceof Budget b) {
            return Problem.of("render-budget", 422, "Render bound too small", b.getMessage())
                    .with("bound", b.bound()).with("needed", b.needed());
        }
        if (e instanceof Limited l) {
            return limited(l);
        }
        if (e instanceof ReflectionFailed r) {
            return reflection(r);
        }
        if (e instanceof SummaryFailed f) {
            return summary(f);
        }
        if (e instanceof DocumentRefused d) {
            return document(d);
        }
        if (e instanceof ArchiveRefused a) {
            return archive(a);
        }
        if (e instanceof ContextChanged c) {
            return Problem.of("context-changed", 409, "Context changed during compaction", c.getMessage());
        }
        return Problem.of("not-found", 404, "Not found", ((NotFound) e).getMessage());
    }

    /**
     * A reflection that landed nothing: 409 with no reflector configured (the request is sound, but this replica
     * cannot serve it until an operator configures one; not a 5xx, which would page someone), 502 when the reflector
     * failed or answered nonsense (the model's fault, not the caller's), 409 when the bank changed meanwhile.
     */
    private static Problem reflection(ReflectionFailed r) {
        Problem p = switch (r.kind()) {
            case UNCONFIGURED -> Problem.of("reflector-not-configured", 409, "No reflector configured", r.getMessage());
            case UNREACHABLE -> Problem.of("reflector-failed", 502, "Reflector failed", r.getMessage())
                    .header("Retry-After", "5");
            case MALFORMED -> Problem.of("reflector-answer", 502, "Reflector answer not usable", r.getMessage());
            case BANK_CHANGED -> Problem.of("bank-changed", 409, "Bank changed during reflection", r.getMessage());
        };
        return r.reflector().isEmpty() ? p : p.with("reflector", r.reflector());
    }

    /**
     * Conversation compaction that needed a summary and got none: 409 when no summarizer is configured (as for a
     * reflector: the operator's to fix, not a 5xx), 502 when the summarizer's model failed or timed out.
     */
    private static Problem summary(SummaryFailed f) {
        return f.getCause() == null
                ? Problem.of("summarizer-not-configured", 409, "No summarizer configured", f.getMessage())
                : Problem.of("summarizer-failed", 502, "Summarizer failed", f.getMessage()).header("Retry-After", "5");
    }

    /** A document's write the store's state refuses, with the path and the numbers to act on. */
    private static Problem document(DocumentRefused d) {
        return switch (d.kind()) {
            case PATH_TAKEN -> d.have().isEmpty()
                    ? Problem.of("path-taken", 409, "Path taken", d.getMessage()).with("path", d.path())
                            .with("id", d.id())
                    : Problem.of("path-taken", 409, "Path taken", d.getMessage()).with("path", d.path())
                            .with("id", d.id()).with("conflicting_path", d.have());
            case CHANGED -> Problem.of("precondition-failed", 412, "Document changed", d.getMessage())
                    .with("path", d.path()).with("id", d.id()).with("want", d.want()).with("have", d.have());
            case ARCHIVED -> Problem.of("store-archived", 409, "Store archived", d.getMessage());
            case TOO_LARGE -> Problem.of("too-large", 413, "Document over the size limit", d.getMessage())
                    .with("path", d.path()).with("size", d.size()).with("limit", d.limit());
        };
    }

    /** An import's archive refused, naming the member, the rule and, for a limit, the numbers. */
    private static Problem archive(ArchiveRefused a) {
        Problem p = switch (a.kind()) {
            case MALFORMED -> Problem.of("archive-malformed", 400, "Archive unreadable", a.getMessage());
            case UNSAFE -> Problem.of("archive-unsafe", 422, "Archive member refused", a.getMessage());
            case INVALID -> Problem.of("archive-invalid", 422, "Archive member invalid", a.getMessage());
            case TOO_LARGE -> Problem.of("archive-too-large", 413, "Archive over a limit", a.getMessage());
        };
        p = p.with("member", a.member()).with("rule", a.rule());
        return a.limit() < 0 ? p : p.with("limit", a.limit()).with("size", a.size());
    }

    /** A limit reached: 429 for the caller's rate or quota, 503 for the replica's capacity; Retry-After when waiting helps. */
    public static Problem limited(Limited l) {
        int status = l.kind() == Limited.Kind.CAPACITY ? 503 : 429;
        String type = switch (l.kind()) {
            case RATE -> "rate-limited";
            case QUOTA -> "quota";
            case CAPACITY -> "busy";
        };
        String title = switch (l.kind()) {
            case RATE -> "Too many requests";
            case QUOTA -> "Quota reached";
            case CAPACITY -> "Server busy";
        };
        Problem p = Problem.of(type, status, title, l.getMessage()).with("limit", l.limit()).with("max", l.max());
        return l.retryAfterSeconds() > 0 ? p.header("Retry-After", Long.toString(l.retryAfterSeconds()))
                .with("retry_after", l.retryAfterSeconds()) : p;
    }

    /** A request the caller's key does not allow: what it needs, and the scopes the key writes and reads there. */
    public static Problem forbidden(Denied d) {
        Problem p = Problem.of("forbidden", 403, "Forbidden", d.getMessage()).with("needs", d.needs());
        return d.store() == null ? p
                : p.with("store", d.store()).with("writable_scopes", d.writable()).with("readable_scopes", d.readable());
    }

    private static Problem json(JacksonException e) {
        if (e.getCause() instanceof EngramException m) {
            return refusal(m);
        }
        if (e instanceof JsonMappingException m && !(e instanceof MismatchedInputException)
                && m.getCause() instanceof JacksonException cause) {
            return json(cause);
        }
        if (e instanceof UnrecognizedPropertyException u) {
            String known = u.getKnownPropertyIds() == null ? "" : u.getKnownPropertyIds().stream()
                    .map(String::valueOf).sorted().collect(Collectors.joining(", "));
            return Problem.of("invalid", 422, "Invalid request", "The body has no member \"" + u.getPropertyName()
                    + "\"" + (known.isEmpty() ? "." : "; it takes " + known + ".")
                    + " Check the spelling; unknown members are refused so that nothing is silently ignored.")
                    .with("rule", "unknown-member").with("field", path(u));
        }
        if (e instanceof MismatchedInputException m) {
            if (m.getMessage() != null && m.getMessage().startsWith("No content to map")) {
                return Problem.of("malformed", 400, "Malformed body", "The body is empty; send a JSON object.")
                        .with("rule", "body-missing").with("field", "");
            }
            String field = path(m);
            String expected = expected(m.getTargetType());
            String detail = field.isEmpty() ? "The body must be " + expected + "."
                    : "Member " + field + " must be " + expected + ".";
            return Problem.of("invalid", 422, "Invalid request", detail).with("rule", "member-type")
                    .with("field", field);
        }
        if (e instanceof StreamReadException p) {
            String message = String.valueOf(p.getOriginalMessage());
            long line = p.getLocation() == null ? 0 : p.getLocation().getLineNr();
            long column = p.getLocation() == null ? 0 : p.getLocation().getColumnNr();
            String at = " at line " + line + ", column " + column;
            if (message.startsWith("Duplicate field")) {
                return Problem.of("invalid", 422, "Invalid request", "The body names a member twice" + at
                        + "; send each member once.").with("rule", "duplicate-member").with("field", "");
            }
            if (message.contains("UTF-8") || message.contains("UTF8")) {
                return Problem.of("malformed", 400, "Malformed body", "The body is not valid UTF-8" + at
                        + "; send JSON encoded as UTF-8.").with("rule", "body-encoding").with("field", "");
            }
            return Problem.of("malformed", 400, "Malformed body", "The body is not valid JSON" + at
                    + "; send one JSON object.").with("rule", "body-syntax").with("field", "");
        }
        return Problem.of("malformed", 400, "Malformed body", "The body could not be read as JSON; send one JSON "
                + "object.").with("rule", "body-syntax").with("field", "");
    }

    public static Problem web(int status) {
        return switch (status) {
            case 404 -> Problem.of("not-found", 404, "Not found", "No such resource. The API is under "
                    + "/v1/stores; see /q/openapi.");
            case 405 -> Problem.of("method-not-allowed", 405, "Method not allowed", "This resource does not take "
                    + "that method; see /q/openapi for the ones it takes.");
            case 406 -> Problem.of("not-acceptable", 406, "Not acceptable", "This resource cannot answer in the "
                    + "media type the Accept header asks for; ask for application/json.");
            case 413 -> Problem.of("body-too-large", 413, "Body too large", "The body is over the limit of "
                    + "this server; send a smaller one.");
            case 415 -> Problem.of("unsupported-media-type", 415, "Unsupported media type", "Send the body as "
                    + "application/json.");
            default -> Problem.of("http-" + status, status, "HTTP " + status, "The request could not be served "
                    + "as sent.");
        };
    }

    /** The JSON path of the member a mapping error is about, such as {@code meta.description}. */
    private static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(r -> r.getFieldName() != null ? r.getFieldName() : String.valueOf(r.getIndex()))
                .collect(Collectors.joining("."));
    }

    private static final Map<Class<?>, String> JSON_TYPES = Map.of(
            String.class, "a string", Integer.class, "an integer", int.class, "an integer",
            Long.class, "an integer", long.class, "an integer", Boolean.class, "true or false",
            boolean.class, "true or false", Map.class, "an object");

    private static String expected(Class<?> type) {
        if (type == null) {
            return "of another type";
        }
        if (Map.class.isAssignableFrom(type) || type.isRecord()) {
            return "an object";
        }
        return JSON_TYPES.getOrDefault(type, "of another type");
    }

    private static final Set<String> CONNECTION_STATES = Set.of("08", "57");

    /** Whether the database could not be reached: PostgreSQL down, restarting, or the pool out of connections. */
    private static boolean lostConnection(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StoreUnavailable u && u.connectionLost()) {
                return true;
            }
            if (t instanceof SQLException s && ((s.getSQLState() != null
                    && CONNECTION_STATES.contains(s.getSQLState().substring(0, 2)))
                    || String.valueOf(s.getMessage()).contains("Acquisition timeout"))) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
