package dev.engram.tools;

import java.util.Map;
import java.util.Objects;

/**
 * One memory tool as a model is offered it: name, title, description, the JSON Schema of its arguments (as plain
 * maps and lists, ready for any JSON encoder), and its annotations.
 */
public record ToolDefinition(String name, String title, String description, Map<String, Object> inputSchema,
        Annotations annotations) {

    public ToolDefinition {
        Objects.requireNonNull(name, "name");
        inputSchema = Map.copyOf(inputSchema);
    }

    /**
     * What a host may assume about a tool: whether it only reads, whether it may destroy what is stored, whether
     * calling it twice is the same as once, and whether it reaches outside the memory store (none does).
     */
    public record Annotations(boolean readOnly, boolean destructive, boolean idempotent, boolean openWorld) {
    }
}
