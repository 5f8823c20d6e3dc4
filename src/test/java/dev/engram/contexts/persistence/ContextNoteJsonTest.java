package dev.engram.contexts.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.contexts.Step;
import dev.engram.contexts.messages.ToolCall;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A context's journal record carries each step's observation's size and hash, not the observation (ADR 0008). */
class ContextNoteJsonTest {

    private static final Step READ = Step.tool("look", new ToolCall("c1", "read_file", "{\"path\": \"a.txt\"}"),
            "line1\nline2 \u00e9");

    private static Map<String, Object> appended(List<Step> steps) {
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("id", "run-1");
        record.put("from", 0);
        record.put("steps", steps);
        return record;
    }

    @Test
    void aStepCarriesItsObservationsSizeAndHashWhereTheObservationWas() throws Exception {
        JsonNode note = ContextRecords.JSON.readTree(ContextNoteJson.of(appended(List.of(READ, Step.thought("t")))));
        JsonNode full = ContextRecords.JSON.readTree(ContextRecords.json(appended(List.of(READ, Step.thought("t")))));
        JsonNode step = note.get("steps").get(0);
        assertFalse(step.has("observation"), step.toString());
        assertEquals(14, step.get(ContextNoteJson.BYTES).asInt(), "UTF-8 bytes, not chars");
        assertEquals("sha256:" + sha256Hex("line1\nline2 \u00e9"), step.get(ContextNoteJson.HASH).asText());
        assertEquals(0, note.get("steps").get(1).get(ContextNoteJson.BYTES).asInt());

        List<String> names = new ArrayList<>();
        full.get("steps").get(0).fieldNames().forEachRemaining(n -> names.add(n.equals("observation")
                ? ContextNoteJson.BYTES : n));
        names.add(names.indexOf(ContextNoteJson.BYTES) + 1, ContextNoteJson.HASH);
        List<String> got = new ArrayList<>();
        step.fieldNames().forEachRemaining(got::add);
        assertEquals(names, got, "the other members as before, in their order");

        ObjectNode expected = ((ObjectNode) full.deepCopy());
        ObjectNode noteCopy = (ObjectNode) note.deepCopy();
        for (JsonNode s : expected.get("steps")) {
            ((ObjectNode) s).remove("observation");
        }
        for (JsonNode s : noteCopy.get("steps")) {
            ((ObjectNode) s).remove(List.of(ContextNoteJson.BYTES, ContextNoteJson.HASH));
        }
        assertEquals(expected, noteCopy, "nothing else differs");
    }

    @Test
    void aRecordWithoutStepsIsWrittenAsBefore() {
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("id", "run-1");
        record.put("text", "plan");
        assertEquals(ContextRecords.json(record), ContextNoteJson.of(record));
    }

    private static String sha256Hex(String s) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
