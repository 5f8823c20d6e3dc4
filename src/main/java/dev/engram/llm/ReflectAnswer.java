package dev.engram.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.kernel.ReflectionFailed;
import dev.engram.memories.Observation;
import java.util.ArrayList;
import java.util.List;

/**
 * A chat model's answer read as observations: one JSON object with an {@code observations} array, optionally inside
 * a Markdown code fence (models add one unasked). Anything else, or a field of the wrong type, is
 * {@link ReflectionFailed.Kind#MALFORMED}; fields it does not know are ignored.
 */
final class ReflectAnswer {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SHOWN = 200;

    private ReflectAnswer() {
    }

    static List<Observation> read(String answer, String reflector) {
        String text = unfenced(answer == null ? "" : answer.strip());
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw malformed(reflector, "is not JSON (" + e.getOriginalMessage() + ")", answer);
        }
        if (root == null || !root.isObject() || !root.path("observations").isArray()) {
            throw malformed(reflector, "is not an object with an \"observations\" array", answer);
        }
        List<Observation> observations = new ArrayList<>();
        int n = 0;
        for (JsonNode o : root.get("observations")) {
            n++;
            String where = "observation " + n;
            if (!o.isObject()) {
                throw malformed(reflector, "has " + where + " that is not an object", answer);
            }
            observations.add(new Observation(text(o, "content", where, reflector, answer),
                    number(o, where, reflector, answer), ids(o, where, reflector, answer),
                    flag(o, where, reflector, answer), text(o, "update_observation_id", where, reflector, answer)));
        }
        return observations;
    }

    /** The text inside a Markdown code fence, or {@code text} when it has none. */
    static String unfenced(String text) {
        if (!text.startsWith("```")) {
            return text;
        }
        int open = text.indexOf('\n');
        int close = text.lastIndexOf("```");
        return open < 0 || close <= open ? text : text.substring(open + 1, close).strip();
    }

    private static String text(JsonNode o, String field, String where, String reflector, String answer) {
        JsonNode v = o.get(field);
        if (v == null || v.isNull()) {
            return "";
        }
        if (!v.isTextual()) {
            throw malformed(reflector, "has " + where + " whose " + field + " is not a string", answer);
        }
        return v.asText();
    }

    private static double number(JsonNode o, String where, String reflector, String answer) {
        JsonNode v = o.get("confidence");
        if (v == null || v.isNull()) {
            return 0;
        }
        if (!v.isNumber()) {
            throw malformed(reflector, "has " + where + " whose confidence is not a number", answer);
        }
        return v.asDouble();
    }

    private static List<String> ids(JsonNode o, String where, String reflector, String answer) {
        JsonNode v = o.get("evidence_ids");
        List<String> ids = new ArrayList<>();
        if (v == null || v.isNull()) {
            return ids;
        }
        if (!v.isArray()) {
            throw malformed(reflector, "has " + where + " whose evidence_ids is not an array", answer);
        }
        for (JsonNode id : v) {
            if (!id.isTextual()) {
                throw malformed(reflector, "has " + where + " with an evidence id that is not a string", answer);
            }
            ids.add(id.asText());
        }
        return ids;
    }

    private static boolean flag(JsonNode o, String where, String reflector, String answer) {
        JsonNode v = o.get("conflicting");
        if (v == null || v.isNull()) {
            return false;
        }
        if (!v.isBoolean()) {
            throw malformed(reflector, "has " + where + " whose conflicting is not true or false", answer);
        }
        return v.asBoolean();
    }

    private static ReflectionFailed malformed(String reflector, String what, String answer) {
        String shown = answer == null ? "" : answer.length() > SHOWN ? answer.substring(0, SHOWN) + "..." : answer;
        return new ReflectionFailed(ReflectionFailed.Kind.MALFORMED, reflector, "The " + reflector + " reflector's "
                + "answer " + what + ". Nothing was saved; reflect again, or use a model that follows the JSON form "
                + "in docs/recall.md. It began: " + shown);
    }
}
