package dev.engram.llm;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.memories.Memory;
import dev.engram.memories.MemoryRules;
import java.util.List;

/**
 * What the {@code llm} reflector sends a chat model: {@link #SYSTEM}, the instructions and the answer's JSON form,
 * and {@link #facts}, the bank's new facts and its observations as JSON. docs/recall.md shows both.
 */
final class ReflectPrompt {

    static final String SYSTEM = """
            You consolidate the memory of an AI agent. You are given the new facts of one memory bank and the \
            observations it already holds, as JSON. Write observations: each one a general statement that at least \
            two of the facts support, useful to the agent later.

            Answer with one JSON object and nothing else, in this form:
            {"observations": [{"content": "...", "confidence": 0.8, "evidence_ids": ["<id>", "<id>"], \
            "conflicting": false, "update_observation_id": ""}]}

            Rules:
            - evidence_ids lists at least two ids and at most %d, taken only from the facts and observations given.
            - confidence is a number from 0 to 1: how well the evidence supports the statement.
            - conflicting is true when the evidence disagrees.
            - To revise an existing observation, set update_observation_id to its id and write the whole revised \
            statement, citing its evidence and the new facts. Otherwise leave it "".
            - A fact that supports nothing general is left out. When nothing consolidates, answer \
            {"observations": []}.""".formatted(MemoryRules.MAX_SET_SIZE);

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReflectPrompt() {
    }

    /** The user message: {@code {"facts": [...], "observations": [...]}}, each with the fields a model needs. */
    static String facts(List<Memory> facts, List<Memory> existing) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode f = root.putArray("facts");
        for (Memory m : facts) {
            ObjectNode o = f.addObject().put("id", m.id()).put("content", m.content())
                    .put("importance", m.importance()).put("confidence", m.confidence())
                    .put("created_at", m.createdAt().toString());
            m.tags().forEach(o.putArray("tags")::add);
            m.keywords().forEach(o.putArray("keywords")::add);
        }
        ArrayNode obs = root.putArray("observations");
        for (Memory m : existing) {
            ObjectNode o = obs.addObject().put("id", m.id()).put("content", m.content())
                    .put("confidence", m.confidence());
            m.evidence().forEach(o.putArray("evidence_ids")::add);
        }
        return root.toString();
    }
}
