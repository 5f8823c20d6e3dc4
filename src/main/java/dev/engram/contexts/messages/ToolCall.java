package dev.engram.contexts.messages;

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

    /** The prefix of the ids {@link #withIdAt} gives to calls that came without one. */
    public static final String GENERATED_PREFIX = "call_engram_";

    /**
     * This call, or, when it names a tool but carries no id (as Ollama's calls do), this call with the id
     * {@code call_engram_INDEX}, {@code index} being its step's place in the context: the same step at the same place
     * always gets the same id, so a replay or a prompt render is stable, and no two steps of a context share one.
     */
    public ToolCall withIdAt(int index) {
        return id.isEmpty() && !name.isEmpty() ? new ToolCall(GENERATED_PREFIX + index, name, input) : this;
    }

    /** Whether this is a call at all (its id is not empty). */
    public boolean present() {
        return !id.isEmpty();
    }
}
