package dev.engram.mcp;

import dev.engram.api.Problem;
import dev.engram.api.StrictRequests;
import dev.engram.api.StrictUtf8;
import dev.engram.memory.IdempotencyKey;
import dev.engram.memory.Invalid;
import io.quarkiverse.mcp.server.JsonRpcErrorCodes;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Checks each message POSTed to {@code /mcp} before the MCP server reads it, and answers one it cannot take with a
 * JSON-RPC error instead of letting it fail inside the server. As the Streamable HTTP transport says, input that is
 * not one JSON-RPC message (not UTF-8, not JSON, a batch, an id that is neither a string nor a number) gets HTTP 400
 * and an error with no id; a well-formed request whose params are wrong gets HTTP 200 and an Invalid params error
 * with its id.
 */
@ApplicationScoped
public class McpEnvelope {

    private static final Logger LOG = Logger.getLogger(McpEnvelope.class);
    static final String PATH = "/mcp";

    @ConfigProperty(name = "quarkus.http.limits.max-body-size")
    MemorySize maxBodySize;

    /** Runs after the HTTP edges and authentication (negative orders below -1), before the MCP route. */
    void install(@Observes Router router) {
        long limit = maxBodySize.asLongValue();
        router.routeWithRegex(PATH + "(/.*)?").order(-1).handler(McpEnvelope::refuseKeys);
        router.post(PATH).order(-1)
                .handler(BodyHandler.create(false).setBodyLimit(limit))
                .handler(this::check)
                .failureHandler(ctx -> {
                    if (ctx.statusCode() == 413 && !ctx.response().ended()) {
                        ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
                        refuse(ctx, 413, null, JsonRpcErrorCodes.INVALID_REQUEST, "The body is over this server's "
                                + "limit of " + limit + " bytes; send a smaller message.");
                    } else {
                        ctx.next();
                    }
                });
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
        String badParams = message.containsKey("method") ? params(message) : null;
        if (badParams != null) {
            Object id = message.getValue("id");
            refuse(ctx, id == null ? 400 : 200, id, JsonRpcErrorCodes.INVALID_PARAMS, "Invalid params: " + badParams);
            return;
        }
        ctx.next();
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

    /** What is wrong with a request's or notification's params, or null. */
    static String params(JsonObject m) {
        Object params = m.getValue("params");
        if (m.containsKey("params") && !(params instanceof JsonObject)) {
            return "params must be an object.";
        }
        JsonObject p = params instanceof JsonObject o ? o : new JsonObject();
        return switch (m.getString("method")) {
            case "tools/call" -> {
                if (!(p.getValue("name") instanceof String)) {
                    yield "tools/call takes params {\"name\": \"<tool>\", \"arguments\": {...}}; name must be a "
                            + "string.";
                }
                Object arguments = p.getValue("arguments");
                yield p.containsKey("arguments") && !(arguments instanceof JsonObject)
                        ? "arguments must be an object of the tool's arguments, such as {\"query\": \"...\"}; not "
                                + (arguments == null ? "null" : arguments instanceof String ? "a string"
                                        : "a " + (arguments instanceof JsonArray ? "list" : "scalar")) + "."
                        : null;
            }
            case "resources/read" -> p.getValue("uri") instanceof String ? null
                    : "resources/read takes params {\"uri\": \"memory://block\"}; uri must be a string.";
            default -> null;
        };
    }

    private static void refuse(RoutingContext ctx, int status, Object id, int code, String message) {
        LOG.debugf("Refused an MCP message with %d %d: %s", status, code, message);
        JsonObject error = new JsonObject().put("jsonrpc", "2.0").put("id", id)
                .put("error", new JsonObject().put("code", code).put("message", message));
        ctx.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(error.toBuffer());
    }
}
