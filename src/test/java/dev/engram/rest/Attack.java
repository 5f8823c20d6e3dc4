package dev.engram.rest;

import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * One request as sent: every part can be hostile. {@code setup} is sent first and not judged (what the attack
 * needs to exist); {@code mode} says how the answer is judged: {@code REFUSE} (a 4xx problem, nothing written),
 * {@code ANY} (a 2xx that may write, or a 4xx problem: shapes a server may take, such as a malformed Content-Type
 * on a request without a body), {@code RETRY} (sent twice with one Idempotency-Key: the second a replay, or both
 * refused with idempotency-key-not-taken; the database changes by at most the first write).
 */
record Attack(String kind, String method, String path, Map<String, String> headers, byte[] body,
        List<Attack> setup, Mode mode) {

    Attack(String kind, String method, String path, Map<String, String> headers, byte[] body) {
        this(kind, method, path, headers, body, List.of(), Mode.REFUSE);
    }

    Attack with(Mode m, List<Attack> before) {
        return new Attack(kind, method, path, headers, body, before, m);
    }

    boolean mcp() {
        return path.startsWith("/mcp");
    }

    @Override
    public String toString() {
        String shown = body == null ? "" : new String(body, 0, Math.min(body.length, 160),
                StandardCharsets.ISO_8859_1);
        return kind + ": " + method + " " + path + " " + headers + " " + shown;
    }

    /** How the answer is judged (see above). */
    enum Mode { REFUSE, ANY, RETRY }

    /** An answer as judged; a request left unanswered (timed out, connection dropped) is status 0. */
    record Answer(int statusCode, HttpHeaders headers, String body) {
    }
}
