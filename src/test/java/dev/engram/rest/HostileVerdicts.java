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

    /** Null when a retry with the key is right: the first answer replayed, or both refused for the key. */
    static String judgeRetry(Answer first, Answer again) {
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
        if (first.statusCode() == 422 && first.body().contains("idempotency-key-not-taken")) {
            return again.statusCode() == 422 && again.body().contains("idempotency-key-not-taken") ? null
                    : "the key was refused once, then answered " + again.statusCode();
        }
        return "the valid first write was refused: " + first.statusCode() + " " + abbreviate(first.body());
    }

    /** Null when the answer is right: a 4xx problem+json, or on /mcp a 4xx or a JSON-RPC error. */
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
