package dev.engram.mcp;

import dev.engram.problems.Problem;
import dev.engram.rest.BodyLimits;
import dev.engram.rest.StrictRequests;
import dev.engram.rest.StrictUtf8;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import io.quarkiverse.mcp.server.JsonRpcErrorCodes;
import io.quarkiverse.mcp.server.McpConnection;
import io.quarkiverse.mcp.server.runtime.ConnectionManager;
import io.quarkiverse.mcp.server.runtime.McpConnectionBase;
import io.quarkiverse.mcp.server.runtime.McpMessageHandler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Checks each message POSTed to {@code /mcp} (and to the legacy transport's {@code /mcp/messages/{id}}) before the
 * MCP server reads it, and answers one it cannot take with a JSON-RPC error instead of letting it fail inside the
 * server. As the Streamable HTTP transport says, input that is not one JSON-RPC message (not UTF-8, not JSON, a batch,
 * an id that is neither a string nor a number) gets HTTP 400 and an error with no id; a well-formed request whose
 * params are not what its method takes ({@link McpParams}) gets HTTP 200 and an Invalid params error with its id.
 * What the transport refuses before any message (a method it does not take, a missing Accept or session) is a
 * problem.
 */
@ApplicationScoped
public class McpEnvelope {

    private static final Logger LOG = Logger.getLogger(McpEnvelope.class);
    static final String PATH = "/mcp";
    static final String LEGACY_MESSAGES = "/mcp/messages/*";
    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String ACCEPT = "application/json, text/event-stream";
    private static final String ALLOW = "GET, POST, DELETE";

    /** The MCP revision that has no sessions and whose clients probe with {@code server/discover}. */
    static final String STATELESS_REVISION = "2026-07-28";
    static final String DISCOVER = "server/discover";
    private static final String PROTOCOL_HEADER = "Mcp-Protocol-Version";

    @Inject
    BodyLimits limits;

    @Inject
    ConnectionManager connections;

    @Inject
    McpSubscriptions subscriptions;

    @Inject
    McpToolList toolList;

    /** Runs after the HTTP edges and authentication (negative orders below -1), before the MCP route. */
    void install(@Observes Router router) {
        long limit = limits.of("/mcp");
        // A plain route, not a pattern (a pattern runs a regex, and allocates its matcher, on every request); a
        // path ending in /* matches /mcp itself too, so this one route covers /mcp and everything under it.
        router.route(PATH + "/*").order(-1).handler(McpEnvelope::refuseKeys);
        router.route(PATH).order(-2).handler(this::transport);
        for (String path : new String[] {PATH, LEGACY_MESSAGES}) {
            router.post(path).order(-1)
                    .handler(BodyHandler.create(false).setBodyLimit(limit))
                    .handler(this::check)
                    .failureHandler(ctx -> {
                        if (ctx.statusCode() == 413 && !ctx.response().ended()) {
                            ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
                            refuse(ctx, 413, null, JsonRpcErrorCodes.INVALID_REQUEST, "The body is over this "
                                    + "server's limit of " + limit + " bytes; send a smaller message.");
                        } else {
                            ctx.next();
                        }
                    });
        }
        router.route(PATH + "/*").order(-1).failureHandler(McpEnvelope::bare);
    }

    /**
     * Refuses, as problems, what the Streamable HTTP transport would refuse with an empty answer: a method it does
     * not take, a GET (the session's event stream) without the session's id, and a POST whose Accept does not name
     * both media types the transport may answer in.
     */
    void transport(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        HttpMethod method = request.method();
        if (method != HttpMethod.GET && method != HttpMethod.POST && method != HttpMethod.DELETE
                && method != HttpMethod.OPTIONS) {
            Problem.of("method-not-allowed", 405, "Method not allowed", "/mcp takes POST (a JSON-RPC message), "
                    + "GET (a session's event stream, with its Mcp-Session-Id) and DELETE (to end a session).")
                    .header("Allow", ALLOW).send(ctx);
            return;
        }
        if (method == HttpMethod.GET && request.getHeader(SESSION_HEADER) == null) {
            Problem.of("method-not-allowed", 405, "Method not allowed", "GET /mcp opens the event stream of a "
                    + "session and needs its Mcp-Session-Id. To open a session, POST an initialize request.")
                    .header("Allow", ALLOW).send(ctx);
            return;
        }
        if (method == HttpMethod.POST && !(accepts(request, "application/json")
                && accepts(request, "text/event-stream"))) {
            Problem.of("mcp-accept", 400, "Accept header required", "A POST to /mcp must accept both answers the "
                    + "Streamable HTTP transport may give: send Accept: " + ACCEPT + ".").with("accept", ACCEPT)
                    .send(ctx);
            return;
        }
        ctx.next();
    }

    private static boolean accepts(HttpServerRequest request, String type) {
        return request.headers().getAll(HttpHeaders.ACCEPT).stream().anyMatch(h -> h.contains(type));
    }

    /**
     * A refusal the MCP transport made with a bare status and no body (ctx.fail(status)): answered as a problem
     * with that status. Exceptions and answers already begun are left to the next failure handler.
     */
    static void bare(RoutingContext ctx) {
        int status = ctx.statusCode();
        if (ctx.failure() != null || status < 400 || status > 499 || ctx.response().headWritten()) {
            ctx.next();
            return;
        }
        Problem p = switch (status) {
            case 404 -> Problem.of("mcp-session-unknown", 404, "MCP session unknown", "This request names no MCP "
                    + "session open on this server (Mcp-Session-Id is missing or unknown). Send initialize without "
                    + "Mcp-Session-Id to open one, and its id with every later request.");
            case 405 -> Problem.of("method-not-allowed", 405, "Method not allowed", "The MCP transport does not "
                    + "take this method here.").header("Allow", ALLOW);
            default -> Problem.of("mcp-refused", status, "MCP request refused", "The MCP transport refused this "
                    + "request (HTTP " + status + "). Check the Accept, Mcp-Session-Id and Mcp-Protocol-Version "
                    + "headers; see docs/tools.md.");
        };
        LOG.debugf("MCP transport refused %s %s with %d", ctx.request().method(), ctx.request().path(), status);
        p.send(ctx);
    }

    /**
     * An Idempotency-Key sent to MCP, where a {@code tools/call} may write: the transport keeps none, so it is
     * refused (422 {@code idempotency-key-not-taken}) rather than ignored; send tool calls that must be made at most
     * once to {@code POST /v1/stores/{store}/tools/call}, which keeps one.
     */
    static void refuseKeys(RoutingContext ctx) {
        if (ctx.request().getHeader(IdempotencyKey.HEADER) == null || ctx.request().method().name().equals("GET")
                || ctx.request().method().name().equals("HEAD")) {
            ctx.next();
            return;
        }
        Invalid refused = StrictRequests.keyNotTaken(ctx.request().method() + " " + ctx.request().path());
        Problem.of("invalid", 422, "Invalid request", refused.getMessage()).with("rule", refused.rule())
                .with("field", refused.field()).send(ctx);
    }

    void check(RoutingContext ctx) {
        Buffer body = ctx.body().buffer();
        byte[] bytes = body == null ? new byte[0] : body.getBytes();
        if (StrictUtf8.firstInvalid(bytes) >= 0) {
            refuse(ctx, 400, null, JsonRpcErrorCodes.PARSE_ERROR, "Parse error: the body is not UTF-8; send one "
                    + "JSON-RPC message encoded as UTF-8.");
            return;
        }
        Object json;
        try {
            json = Json.decodeValue(body == null ? Buffer.buffer() : body);
        } catch (DecodeException e) {
            refuse(ctx, 400, null, JsonRpcErrorCodes.PARSE_ERROR, "Parse error: the body is not JSON; send one "
                    + "JSON-RPC message as a JSON object.");
            return;
        }
        if (!(json instanceof JsonObject message)) {
            refuse(ctx, 400, null, JsonRpcErrorCodes.INVALID_REQUEST, json instanceof JsonArray
                    ? "Invalid request: batches are not supported; send one JSON-RPC message per request."
                    : "Invalid request: send one JSON-RPC message as a JSON object.");
            return;
        }
        String invalid = envelope(message);
        if (invalid != null) {
            refuse(ctx, 400, null, JsonRpcErrorCodes.INVALID_REQUEST, "Invalid request: " + invalid);
            return;
        }
        String badParams = message.containsKey("method") ? McpParams.check(message) : null;
        if (badParams != null) {
            Object id = message.getValue("id");
            refuse(ctx, id == null ? 400 : 200, id, JsonRpcErrorCodes.INVALID_PARAMS, "Invalid params: " + badParams);
            return;
        }
        if (message.containsKey("method") && lifecycle(ctx, message)) {
            return;
        }
        ctx.next();
    }

    /** The MCP protocol revisions the server speaks, newest first. */
    static List<String> supportedVersions() {
        return McpMessageHandler.SUPPORTED_PROTOCOL_VERSIONS;
    }

    /**
     * Answers, with a JSON-RPC error that says what to do, the requests the MCP server would answer with a bare or
     * misleading one: a 2026-07-28 probe ({@code server/discover}: Method not found, which a client that speaks both
     * revisions takes as "initialize instead"), a Mcp-Protocol-Version the server does not speak, a request on no
     * session or on one not initialized yet, and completion/complete (there is nothing to complete). Lists the
     * tools with the connection's scopes in their schemas ({@link McpToolList}), and records subscriptions to the
     * memory block ({@link McpSubscriptions}). True when the request was answered (or is being answered) here.
     */
    private boolean lifecycle(RoutingContext ctx, JsonObject message) {
        String method = message.getString("method");
        Object id = message.getValue("id");
        boolean request = message.containsKey("id");
        String connection = connectionId(ctx);
        if (DISCOVER.equals(method)) {
            refuse(ctx, 200, id, JsonRpcErrorCodes.METHOD_NOT_FOUND, "Method not found: server/discover belongs to MCP "
                    + "revision " + STATELESS_REVISION + ", which this server does not speak yet. It speaks "
                    + String.join(", ", supportedVersions()) + ": send initialize with one of them.",
                    new JsonObject().put("supportedVersions", supportedVersions()));
            return true;
        }
        String version = ctx.request().getHeader(PROTOCOL_HEADER);
        if (version != null && !supportedVersions().contains(version.trim())) {
            refuse(ctx, 400, id, JsonRpcErrorCodes.INVALID_REQUEST, "Invalid request: this server does not speak MCP "
                    + "revision " + version.trim() + " (the " + PROTOCOL_HEADER + " header). It speaks "
                    + String.join(", ", supportedVersions()) + "; send the version initialize agreed on.",
                    new JsonObject().put("supportedVersions", supportedVersions()).put("requested", version.trim()));
            return true;
        }
        if ("initialize".equals(method)) {
            return false;
        }
        McpConnectionBase open = connection == null ? null : connections.get(connection);
        if (connection == null || open != null && open.status() == McpConnection.Status.NEW) {
            refuse(ctx, 400, id, JsonRpcErrorCodes.INVALID_REQUEST, "Invalid request: " + method + " needs an "
                    + "initialized MCP session, and " + (connection == null ? "this request names none" : "session "
                    + connection + " has not been initialized") + ". Send initialize first (over Streamable HTTP "
                    + "without Mcp-Session-Id, then its Mcp-Session-Id with every later request), then "
                    + "notifications/initialized.");
            return true;
        }
        if (open == null) {
            return false; // the transport answers an unknown session (404)
        }
        if ("tools/list".equals(method) && request && open.status() == McpConnection.Status.IN_OPERATION) {
            toolList.list(ctx, listed -> {
                if (listed.isEmpty()) {
                    ctx.next();
                } else if (ctx.normalizedPath().startsWith("/mcp/messages/")) {
                    open.send(new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", listed.get()));
                    ctx.response().setStatusCode(202).end();
                } else {
                    ctx.response().setStatusCode(200).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                            .end(new JsonObject().put("jsonrpc", "2.0").put("id", id).put("result", listed.get())
                                    .toBuffer());
                }
            });
            return true;
        }
        if ("completion/complete".equals(method) && request) {
            answer(ctx, open, id, JsonRpcErrorCodes.INVALID_PARAMS, "Nothing to complete: this server has no "
                    + "prompts and no resource templates; its one resource, " + McpMemoryServer.BLOCK_URI
                    + ", takes no arguments.");
            return true;
        }
        if ("resources/subscribe".equals(method) || "resources/unsubscribe".equals(method)) {
            String uri = message.getJsonObject("params").getString("uri");
            if (!McpMemoryServer.BLOCK_URI.equals(uri)) {
                if (request) {
                    answer(ctx, open, id, JsonRpcErrorCodes.RESOURCE_NOT_FOUND, "Resource not found: " + uri
                            + ". This server has one resource to subscribe to: " + McpMemoryServer.BLOCK_URI + ".");
                    return true;
                }
                return false;
            }
            if (method.endsWith("/unsubscribe")) {
                subscriptions.unsubscribe(connection);
            } else {
                try {
                    subscriptions.subscribe(connection, McpConnectionSettings.of(ctx.request()).store());
                } catch (dev.engram.kernel.EngramException e) {
                    if (request) {
                        answer(ctx, open, id, JsonRpcErrorCodes.INVALID_PARAMS, "Invalid params: " + e.getMessage());
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * The MCP connection a POST belongs to: the Streamable HTTP session it names, or the legacy transport's
     * connection in the path; null when it names none.
     */
    private static String connectionId(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        if (path.startsWith("/mcp/messages/")) {
            String id = path.substring("/mcp/messages/".length());
            return id.isEmpty() ? null : id;
        }
        String session = ctx.request().getHeader(SESSION_HEADER);
        return session == null || session.isBlank() ? null : session.trim();
    }

    /**
     * A JSON-RPC error to a request on an open connection: in the HTTP answer over Streamable HTTP, on the event
     * stream over the legacy transport (whose POST is answered 202, as the transport answers every message).
     */
    private static void answer(RoutingContext ctx, McpConnectionBase open, Object id, int code, String message) {
        if (ctx.normalizedPath().startsWith("/mcp/messages/")) {
            open.send(error(id, code, message, null));
            ctx.response().setStatusCode(202).end();
        } else {
            refuse(ctx, 200, id, code, message);
        }
    }

    /** What is wrong with the message as JSON-RPC 2.0, or null when it is a request, a notification or a response. */
    static String envelope(JsonObject m) {
        if (!"2.0".equals(m.getValue("jsonrpc"))) {
            return "jsonrpc must be \"2.0\".";
        }
        if (m.containsKey("id") && !(m.getValue("id") instanceof String || m.getValue("id") instanceof Number)) {
            return "id must be a string or a number.";
        }
        if (!m.containsKey("method")) {
            boolean response = m.containsKey("id") && (m.containsKey("result") || m.containsKey("error"));
            return response ? null : "a message has a method, or is a response with an id and a result or an error.";
        }
        return m.getValue("method") instanceof String ? null : "method must be a string.";
    }

    private static void refuse(RoutingContext ctx, int status, Object id, int code, String message) {
        refuse(ctx, status, id, code, message, null);
    }

    private static void refuse(RoutingContext ctx, int status, Object id, int code, String message, JsonObject data) {
        LOG.debugf("Refused an MCP message with %d %d: %s", status, code, message);
        ctx.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(error(id, code, message, data).toBuffer());
    }

    private static JsonObject error(Object id, int code, String message, JsonObject data) {
        JsonObject error = new JsonObject().put("code", code).put("message", message);
        if (data != null) {
            error.put("data", data);
        }
        return new JsonObject().put("jsonrpc", "2.0").put("id", id).put("error", error);
    }
}
