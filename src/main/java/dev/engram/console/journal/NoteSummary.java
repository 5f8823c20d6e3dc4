package dev.engram.console.journal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.kernel.Note;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * One line saying what a note of another tier recorded (docs/journal-format.md): the memory's bank and content, the
 * slot's text, the context's steps and their tools, a compaction's fill before and after, a document's path. Agents
 * wrote most of it: the line is plain text, cut to {@value #MOST_CHARS} characters, for the page to escape.
 */
final class NoteSummary {

    /** The most characters of one text quoted in a summary. */
    static final int MOST_CHARS = 160;
    /** The most tool names listed for appended steps. */
    static final int MOST_TOOLS = 4;

    private static final ObjectMapper JSON = new ObjectMapper();

    private NoteSummary() {
    }

    /** The summary of {@code note}; "" when its body says nothing worth a line. */
    static String of(Note note) {
        JsonNode body;
        try {
            body = JSON.readTree(note.body());
        } catch (JsonProcessingException e) {
            return "";
        }
        if (body == null || !body.isObject()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        text(body, "bank_id").ifPresent(parts::add);
        text(body, "bank").ifPresent(parts::add);
        text(body, "slot").map(s -> "slot " + s).ifPresent(parts::add);
        text(body, "type").ifPresent(parts::add);
        text(body, "path").ifPresent(parts::add);
        if (body.path("steps").isArray()) {
            parts.add(steps(body));
        }
        if (note.kind().equals("memories.cleared") && body.path("count").isNumber()) {
            parts.add(count(body.path("count").asLong(), "memory", "memories"));
        }
        if (body.path("before_percent").isNumber() && body.path("after_percent").isNumber()) {
            parts.add("filled " + body.path("before_percent").asLong() + "% → " + body.path("after_percent").asLong()
                    + "%" + text(body, "strategy").map(s -> " by " + s).orElse(""));
        }
        if (body.path("input_tokens").isNumber()) {
            parts.add(body.path("input_tokens").asLong() + " input tokens");
        }
        text(body, "tool_name").map(t -> "tool " + t).ifPresent(parts::add);
        for (String field : List.of("content", "text", "name", "description", "mission")) {
            Optional<String> t = text(body, field);
            if (t.isPresent()) {
                parts.add(quote(t.get()));
                break;
            }
        }
        return String.join(" · ", parts);
    }

    /** How many steps, from which index, with which tools, and the first step's thought. */
    private static String steps(JsonNode body) {
        JsonNode steps = body.path("steps");
        StringBuilder b = new StringBuilder(count(steps.size(), "step", "steps"));
        if (body.path("from").isNumber()) {
            b.append(" from #").append(body.path("from").asLong());
        }
        Set<String> tools = new LinkedHashSet<>();
        for (JsonNode step : steps) {
            text(step.path("action"), "name").ifPresent(tools::add);
        }
        if (!tools.isEmpty()) {
            List<String> named = tools.stream().limit(MOST_TOOLS).toList();
            b.append(", tools ").append(String.join(", ", named)).append(tools.size() > MOST_TOOLS ? ", ..." : "");
        }
        if (steps.size() > 0) {
            text(steps.get(0), "thought").ifPresent(t -> b.append(": ").append(quote(t)));
        }
        return b.toString();
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isTextual() && !v.asText().isBlank() ? Optional.of(v.asText())
                : Optional.empty();
    }

    /** {@code text} on one line, whitespace runs as one space, cut at {@value #MOST_CHARS} characters. */
    static String quote(String text) {
        String line = text.strip().replaceAll("\\s+", " ");
        if (line.codePointCount(0, line.length()) > MOST_CHARS) {
            line = line.substring(0, line.offsetByCodePoints(0, MOST_CHARS)) + "…";
        }
        return "“" + line + "”";
    }

    private static String count(long n, String one, String many) {
        return String.format(Locale.ROOT, "%,d %s", n, n == 1 ? one : many);
    }
}
