package dev.engram.context;

/**
 * A call of a tool the model asked for. A step whose action has an empty {@code id} is not a tool step.
 *
 * @param id the call's id, as the model gave it; "" when the step called no tool
 * @param name the tool's name
 * @param input the arguments as JSON text, kept byte for byte (they are counted, never parsed, except for hints)
 */
public record ToolCall(String id, String name, String input) {

    /** No call: the action of a step that called no tool. */
    public static final ToolCall NONE = new ToolCall("", "", "");

    public ToolCall {
        id = Text.orEmpty(id);
        name = Text.orEmpty(name);
        input = Text.orEmpty(input);
    }

    /** Whether this is a call at all (its id is not empty). */
    public boolean present() {
        return !id.isEmpty();
    }
}
