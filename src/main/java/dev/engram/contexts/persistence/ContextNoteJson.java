package dev.engram.contexts.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.contexts.Step;
import dev.engram.kernel.Sha256;
import dev.engram.kernel.Utf8;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The JSON of a context's journal record (a context note): its members as {@link ContextRecords#json} writes them,
 * except that a step carries its observation's size and hash, {@value #BYTES} and {@value #HASH}, in place of the
 * observation (docs/adr/0008-one-journal-model.md). The context's own rows keep the whole step.
 */
final class ContextNoteJson {

    /** A step's observation's length in UTF-8 bytes. */
    static final String BYTES = "observation_bytes";
    /** {@code sha256:} and the lowercase hex SHA-256 of the observation's UTF-8 bytes, as an entry's hash is. */
    static final String HASH = "observation_hash";
    private static final String OBSERVATION = "observation";

    private ContextNoteJson() {
    }

    /** The record's JSON, each step of its {@code steps} without its observation but with its size and hash. */
    static String of(Map<String, Object> record) {
        JsonNode tree = ContextRecords.JSON.valueToTree(record);
        if (tree.get("steps") instanceof ArrayNode steps) {
            for (int i = 0; i < steps.size(); i++) {
                if (steps.get(i) instanceof ObjectNode step && step.has(OBSERVATION)) {
                    steps.set(i, withoutObservation(step));
                }
            }
        }
        return ContextRecords.json(tree);
    }

    /** {@code step} with its size and hash where its observation was, the members' order kept. */
    private static ObjectNode withoutObservation(ObjectNode step) {
        ObjectNode out = ContextRecords.JSON.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> members = step.fields(); members.hasNext(); ) {
            Map.Entry<String, JsonNode> m = members.next();
            if (m.getKey().equals(OBSERVATION)) {
                String text = m.getValue().asText();
                out.put(BYTES, Utf8.length(text));
                out.put(HASH, hash(text));
            } else {
                out.set(m.getKey(), m.getValue());
            }
        }
        return out;
    }

    /** {@code sha256:} and the lowercase hex SHA-256 of {@code text}'s UTF-8 bytes. */
    static String hash(String text) {
        return "sha256:" + Sha256.hex(text);
    }
}
