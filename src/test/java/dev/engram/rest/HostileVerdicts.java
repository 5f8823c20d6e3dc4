package dev.engram.rest;

import static dev.engram.rest.JsonShapes.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.rest.Attack.Answer;
import dev.engram.rest.Attack.Mode;

/** How an answer to a hostile request is judged: null when it is right, else why it is wrong. */
final class HostileVerdicts {

    private HostileVerdicts() {
    }

    static String join(String why, String more) {
        return why == null ? more : more == null ? why : why + "; " + more;
    }

    /**
     * Null when a retry with the key is right: the first answer replayed, or both refused for the key (422
     * idempotency-key-not-taken; under /v1/memory_stores, which keeps no key, a 400 envelope naming that rule in
     * {@code error.details.rule}, not to be retried).
     */
    static String judgeRetry(Attack a, Answer first, Answer again) {
        if (first.statusCode() < 300) {
            if (again.statusCode() != first.statusCode()
                    || !again.headers().firstValue("Idempotent-Replayed").orElse("").equals("true")
                    || !again.body().equals(first.body())) {
                return "a retry with the same Idempotency-Key was not a replay: first " + first.statusCode() + " "
                        + abbreviate(first.body()) + ", then " + again.statusCode() + " Idempotent-Replayed="
                        + again.headers().firstValue("Idempotent-Replayed").orElse("(none)");
            }
            return null;
        }
        if (AttackShapes.anthropic(a.path())) {
            if (!keyRefusedInTheEnvelope(first)) {
                return "the valid first write was not refused for its key: " + first.statusCode() + " "
                        + abbreviate(first.body());
            }
            return keyRefusedInTheEnvelope(again) ? null : "the key was refused once, then answered "
                    + again.statusCode() + " " + abbreviate(again.body());
        }
        if (first.statusCode() == 422 && first.body().contains("idempotency-key-not-taken")) {
            return again.statusCode() == 422 && again.body().contains("idempotency-key-not-taken") ? null
                    : "the key was refused once, then answered " + again.statusCode();
        }
        return "the valid first write was refused: " + first.statusCode() + " " + abbreviate(first.body());
    }

    /** A refused Idempotency-Key under /v1/memory_stores: 400, the envelope naming the rule, not to be retried. */
    static boolean keyRefusedInTheEnvelope(Answer r) {
        if (r.statusCode() != 400 || envelope(r) != null
                || !r.headers().firstValue("x-should-retry").orElse("").equals("false")) {
            return false;
        }
        try {
            JsonNode e = JSON.readTree(r.body()).path("error");
            return e.path("details").path("rule").asText().equals("idempotency-key-not-taken")
                    && e.path("details").path("field").asText().equals("Idempotency-Key");
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * Null when {@code r} is a clear refusal in Anthropic's error envelope: JSON, {@code type} error, an
     * {@code error.type} that is its status's, a message, and the request id of its request-id header.
     */
    static String envelope(Answer r) {
        int status = r.statusCode();
        if (!r.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
            return "not the error envelope (application/json)";
        }
        try {
            JsonNode n = JSON.readTree(r.body());
            JsonNode error = n.path("error");
            if (!n.path("type").asText().equals("error") || error.path("message").asText().isBlank()) {
                return "an envelope without its type and message";
            }
            if (!errorTypes(status).contains(error.path("type").asText())) {
                return "an envelope whose error type " + error.path("type").asText() + " is not one of status "
                        + status + " " + errorTypes(status);
            }
            String id = n.path("request_id").asText();
            if (!id.matches("req_[0-9a-f]{24}") || !id.equals(r.headers().firstValue("request-id").orElse(""))) {
                return "an envelope without the request id of its request-id header";
            }
            if (error.path("details").path("status").asInt() < 400
                    || !error.path("details").path("problem").asText().startsWith("https://")) {
                return "an envelope without the problem in its details";
            }
        } catch (Exception e) {
            return "an envelope that is not JSON";
        }
        return null;
    }

    /** Anthropic's error types a status of the envelope may carry. */
    static java.util.List<String> errorTypes(int status) {
        return switch (status) {
            case 400 -> java.util.List.of("invalid_request_error");
            case 401 -> java.util.List.of("authentication_error");
            case 403 -> java.util.List.of("permission_error");
            case 404 -> java.util.List.of("not_found_error");
            case 409 -> java.util.List.of("conflict_error", "memory_path_conflict_error",
                    "memory_precondition_failed_error");
            case 413 -> java.util.List.of("request_too_large");
            case 429 -> java.util.List.of("rate_limit_error");
            default -> status >= 500 ? java.util.List.of("api_error", "overloaded_error")
                    : java.util.List.of("invalid_request_error");
        };
    }

    /**
     * Null when the answer is right: a 4xx problem+json (under /v1/memory_stores, the error envelope), or on /mcp a
     * 4xx or a JSON-RPC error.
     */
    static String judge(Attack a, Answer r) {
        int status = r.statusCode();
        if (status == 0) {
            return "no answer";
        }
        String type = r.headers().firstValue("Content-Type").orElse("");
        if (status >= 500) {
            return "a server error";
        }
        if (a.mcp()) {
            if (status >= 400) {
                return type.startsWith("application/problem+json") || type.startsWith("application/json")
                        ? null : "a refusal that is not JSON";
            }
            if (a.mode() == Mode.ANY) {
                return jsonRpc(r.body()) ? null : "an MCP answer that is not JSON-RPC";
            }
            return jsonRpcError(r.body()) ? null : "an MCP answer that is neither a JSON-RPC error nor a tool error";
        }
        if (status < 300 && a.mode() != Mode.REFUSE) {
            return null;
        }
        if (status == 200 && (a.path().endsWith("/tools/call") || a.path().endsWith("/memory-tool"))) {
            return toolError(r.body()) ? null : "a tool call that was not refused";
        }
        if (status < 400) {
            return "accepted";
        }
        if (AttackShapes.anthropic(a.path())) {
            return envelope(r);
        }
        if (!type.startsWith("application/problem+json")) {
            return "not problem+json";
        }
        try {
            JsonNode p = JSON.readTree(r.body());
            if (p.path("status").asInt() != status || !p.path("type").asText().startsWith("https://")
                    || p.path("title").asText().isEmpty()) {
                return "a problem without its type, title and status";
            }
        } catch (Exception e) {
            return "a problem body that is not JSON";
        }
        return null;
    }

    /** A refused tool call answers 200 with is_error, the text the model reads to correct itself. */
    static boolean toolError(String body) {
        try {
            return JSON.readTree(body).path("is_error").asBoolean(false);
        } catch (Exception e) {
            return false;
        }
    }

    /** A JSON-RPC answer: a result or an error. */
    static boolean jsonRpc(String body) {
        JsonNode n = lastMessage(body);
        return n != null && n.path("jsonrpc").asText().equals("2.0") && (n.has("result") || n.has("error")
                && n.path("error").has("code") && n.path("error").has("message"));
    }

    static JsonNode lastMessage(String body) {
        String json = body.strip();
        if (!json.startsWith("{") && !json.startsWith("[")) {
            json = json.lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5)).reduce((x, y) -> y)
                    .orElse("");
        }
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            return null;
        }
    }

    /** A JSON-RPC error, or a tools/call result flagged isError (how MCP reports a refused tool call). */
    static boolean jsonRpcError(String body) {
        String json = body.strip();
        if (!json.startsWith("{") && !json.startsWith("[")) {
            json = json.lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5)).reduce((x, y) -> y)
                    .orElse("");
        }
        try {
            JsonNode n = JSON.readTree(json);
            return n != null && (n.has("error") && n.path("error").has("code") && n.path("error").has("message")
                    || n.path("result").path("isError").asBoolean(false));
        } catch (Exception e) {
            return false;
        }
    }

    static String abbreviate(String s) {
        return s.length() <= 240 ? s : s.substring(0, 240) + "...";
    }
}
