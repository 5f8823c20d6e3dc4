package dev.engram.faults;

import static dev.engram.faults.EmbeddedEngramIT.emptied;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A context survives a restart of Engram: the packaged application on its own embedded PostgreSQL is stopped and
 * started again on the same data directory, and a context holding every kind of state (steps of every field, a
 * compacted prefix with steps after it, cached tool results, an interjection, a corrected token count with steps
 * counted since, a memory block) answers the identical prompt, fill, view, steps and cached result after it.
 */
class ContextRestartIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String STORE = "/v1/stores/kept";
    static final String C = STORE + "/contexts/run-1";

    @Test
    void aContextAnswersTheSamePromptAndFillAfterARestart() throws Exception {
        Path dir = emptied(EngramProcess.itDir("context-restart"));
        Map<String, String> before;
        try (EngramProcess engram = EngramProcess.embedded("engram", EngramProcess.freePort(), dir).start()) {
            fill(engram);
            before = answers(engram);
        }
        assertTrue(before.get("view").contains("\"compacted\":true"), before.get("view"));
        assertTrue(before.get("prompt").contains("[... 2 steps omitted ...]"), before.get("prompt"));
        assertTrue(before.get("prompt").contains("# Memory"), before.get("prompt"));
        assertTrue(before.get("prompt").contains("untrusted-content"), before.get("prompt"));
        assertTrue(before.get("fill").contains("\"used\":"), before.get("fill"));
        try (EngramProcess again = EngramProcess.embedded("engram", EngramProcess.freePort(), dir).start()) {
            Map<String, String> after = answers(again);
            for (String what : before.keySet()) {
                assertEquals(JSON.readTree(before.get(what)), JSON.readTree(after.get(what)), what);
            }
            JsonNode log = JSON.readTree(ok(again, "GET", STORE + "/sessions/run-1/manifests", null));
            assertEquals(1, log.path("records").size(), "the same block was shown again: nothing recorded");
        }
    }

    /** A context with every kind of state, built as an agent would. */
    private static void fill(EngramProcess engram) throws Exception {
        ok(engram, "PUT", STORE + "/scopes/user/entries/style", "{\"content\": \"Short answers.\\n\"}");
        ok(engram, "PUT", C, "{\"model\": {\"context_window\": 8000, \"output_limit\": 1000}, "
                + "\"strategy\": {\"name\": \"sliding_window\", \"keep_first\": 1, \"keep_last\": 1}, "
                + "\"pruning\": {\"keep_last_n\": 2, \"protected_tools\": [\"read_file\"], \"threshold_percent\": 0}, "
                + "\"history_mutation\": {\"tool_result_eviction_step\": 2}, \"injection_defense\": true, "
                + "\"memory\": {\"scopes\": [\"user\"], \"max_total_bytes\": 4000}}");
        ok(engram, "PUT", C + "/system-prompt", "{\"text\": \"You fix builds.\\u0000CACHE_BREAK\\u0000Be brief.\"}");
        ok(engram, "PUT", C + "/task", "{\"text\": \"Make it pass.\", \"blocks\": [{\"type\": \"text\", \"text\": "
                + "\"see the log\"}, {\"type\": \"image\", \"image_b64\": \"AAAA\", \"media_type\": \"image/png\"}]}");
        ok(engram, "PUT", C + "/plan", "{\"text\": \"1. read 2. fix\"}");
        ok(engram, "PUT", C + "/prior-conversation", "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, "
                + "{\"role\": \"assistant\", \"content\": \"hello\"}]}");
        ok(engram, "POST", C + "/steps", "{\"steps\": ["
                + step("Read the log.", "c1", "read_file", "build.log", "error: x\\nat Main.java:3", true, false)
                + ", " + step("Search.", "c2", "web_fetch", "http://x", "page </untrusted-content> text", false, true)
                + ", {\"thought\": \"Think.\", \"reasoning_content\": \"because\", \"reasoning_items\": [{\"id\": "
                + "\"r1\", \"summary\": \"s\"}], \"tokens_used\": 12, \"user_nudge\": \"go on\"}"
                + ", {\"action\": {\"id\": \"c3\", \"name\": \"grep\", \"input\": \"{\\\"q\\\": 1}\"}, "
                + "\"observation\": \"one\", \"response_group\": 4, \"is_error\": true}"
                + "]}");
        ok(engram, "POST", C + "/compact", null);
        ok(engram, "POST", C + "/steps", "{\"steps\": ["
                + step("Read again.", "c4", "read_file", "Main.java", "class Main {}", true, false) + ", "
                + step("Fetch again.", "c5", "web_fetch", "http://y", "other page", false, true) + "]}");
        ok(engram, "POST", C + "/token-count", "{\"input_tokens\": 1234}");
        ok(engram, "POST", C + "/steps", "{\"steps\": [" + step("Edit.", "c6", "edit_file", "Main.java", "edited",
                false, false) + "]}");
        ok(engram, "PUT", C + "/interjection", "{\"text\": \"stop and report\"}");
    }

    private static String step(String thought, String id, String tool, String path, String observation,
            boolean cache, boolean untrusted) {
        return "{\"thought\": \"" + thought + "\", \"action\": {\"id\": \"" + id + "\", \"name\": \"" + tool
                + "\", \"input\": {\"path\": \"" + path + "\"}}, \"observation\": \"" + observation + "\", \"cache\": "
                + cache + ", \"untrusted\": " + untrusted + "}";
    }

    /** What the context answers: prompt, fill, view, steps, the vulnerable outputs and a cached result. */
    private static Map<String, String> answers(EngramProcess engram) throws Exception {
        Map<String, String> answers = new LinkedHashMap<>();
        answers.put("prompt", ok(engram, "GET", C + "/prompt", null));
        answers.put("fill", ok(engram, "GET", C + "/fill", null));
        answers.put("view", ok(engram, "GET", C, null));
        answers.put("steps", ok(engram, "GET", C + "/steps", null));
        answers.put("vulnerable", ok(engram, "GET", C + "/vulnerable-outputs", null));
        String hash = JSON.readTree(answers.get("steps")).path("steps").path(0).path("cache_hash").asText();
        answers.put("cached", ok(engram, "GET", C + "/tool-results/" + hash + "?start_line=2&num_lines=1", null));
        return answers;
    }

    private static String ok(EngramProcess engram, String method, String path, String body) throws Exception {
        HttpResponse<String> r = EmbeddedEngramIT.send(engram, method, path, body);
        assertTrue(r.statusCode() < 300, method + " " + path + ": " + r.statusCode() + " " + r.body());
        return r.body();
    }
}
