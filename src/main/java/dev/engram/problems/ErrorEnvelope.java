package dev.engram.problems;

import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The second rendering of a {@link Problem}, for requests under {@value #PATH} (the Memory Stores API, whose clients
 * are Anthropic's SDKs): Anthropic's error envelope, {@code {"type": "error", "error": {"type", "message"},
 * "request_id"}}, with Anthropic's error types and statuses. The problem's own type and members stay in
 * {@code error.details}. A refusal that retrying cannot fix carries {@code x-should-retry: false}, so the SDKs (which
 * retry 408, 409, 429 and 5xx) do not send it again.
 *
 * <p>Translated: a malformed or invalid request (400, 422) and an archived store's refusal are 400
 * {@code invalid_request_error}; a path taken is 409 {@code memory_path_conflict_error} with
 * {@code conflicting_memory_id} and {@code conflicting_path}; a document's failed precondition (412) is 409
 * {@code memory_precondition_failed_error}; 401, 403, 404, 413, 429 and 5xx are {@code authentication_error},
 * {@code permission_error}, {@code not_found_error}, {@code request_too_large}, {@code rate_limit_error} and
 * {@code api_error} ({@code overloaded_error} for a busy replica).
 */
public final class ErrorEnvelope {

    /** The path the envelope answers under. */
    public static final String PATH = "/v1/memory_stores";
    public static final String REQUEST_ID = "request-id";
    public static final String SHOULD_RETRY = "x-should-retry";
    private static final SecureRandom RANDOM = new SecureRandom();

    private ErrorEnvelope() {
    }

    /** Whether a refusal of a request for {@code path} is answered with the envelope. */
    public static boolean covers(String path) {
        return path != null && (path.equals(PATH) || path.startsWith(PATH + "/") || path.startsWith(PATH + "?"));
    }

    /** The status the envelope answers {@code p} with. */
    static int status(Problem p) {
        return switch (p.slug()) {
            case "invalid", "malformed", "store-archived" -> 400;
            case "precondition-failed" -> 409;
            default -> p.status() == 422 ? 400 : p.status();
        };
    }

    /** Anthropic's error type of {@code p}. */
    static String type(Problem p) {
        switch (p.slug()) {
            case "path-taken":
                return "memory_path_conflict_error";
            case "precondition-failed":
                return "memory_precondition_failed_error";
            case "busy":
                return "overloaded_error";
            default:
                break;
        }
        int status = status(p);
        return switch (status) {
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 409 -> "conflict_error";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
    }

    /** Whether the SDKs must not send the refused request again as it was. */
    static boolean notRetryable(Problem p) {
        int status = status(p);
        return status >= 400 && status < 500 && status != 408 && status != 429;
    }

    /** The headers of the envelope of {@code p}: the problem's own, the request's id, and whether to retry. */
    static Map<String, String> headers(Problem p, String requestId) {
        Map<String, String> headers = new LinkedHashMap<>(p.headers());
        headers.put(REQUEST_ID, requestId);
        if (notRetryable(p)) {
            headers.put(SHOULD_RETRY, "false");
        }
        return headers;
    }

    /** The envelope's JSON. */
    static Map<String, Object> body(Problem p, String instance, String requestId) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("type", type(p));
        error.put("message", p.detail());
        if (p.slug().equals("path-taken")) {
            error.put("conflicting_memory_id", p.members().getOrDefault("id", ""));
            error.put("conflicting_path", p.members().getOrDefault("conflicting_path",
                    p.members().getOrDefault("path", "")));
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("problem", Problem.TYPE_BASE + p.slug());
        details.put("status", p.status());
        p.members().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(m -> details.put(m.getKey(), m.getValue()));
        error.put("details", details);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "error");
        body.put("error", error);
        body.put("request_id", requestId);
        return body;
    }

    /** A new request id, {@code req_} and 24 hex digits. */
    static String requestId() {
        StringBuilder id = new StringBuilder("req_");
        for (int i = 0; i < 12; i++) {
            id.append(String.format("%02x", RANDOM.nextInt(256)));
        }
        return id.toString();
    }
}
