package dev.engram.tools.host;

import dev.engram.contexts.tools.ContextTools;
import dev.engram.documents.tools.DocumentTools;
import dev.engram.memories.tools.RecallTools;
import dev.engram.tools.Usage;

/**
 * Which tool sets a caller is offered, the one filter every transport lists by: the entry tools when it names scopes
 * (or names neither a bank nor a context), the recall tools when it names a bank, tool_result_read when it names a
 * context, the memory tool when it asks for it. A model is not offered tools every call of which would fail.
 */
public record Offer(boolean entries, boolean bank, boolean context, boolean memoryTool) {

    /** The offer to a caller that names scopes or not, a bank or not, a context or not. */
    public static Offer of(boolean namesScopes, boolean namesBank, boolean namesContext) {
        return of(namesScopes, namesBank, namesContext, false);
    }

    /** The same, and the memory tool when {@code memoryTool}; the entry tools then only if scopes are named. */
    public static Offer of(boolean namesScopes, boolean namesBank, boolean namesContext, boolean memoryTool) {
        return new Offer(namesScopes || !namesBank && !namesContext && !memoryTool, namesBank, namesContext,
                memoryTool);
    }

    /** Whether the tool named {@code tool} is offered; a tool of no set (none such) is. */
    public boolean offers(String tool) {
        if (RecallTools.handles(tool)) {
            return bank;
        }
        if (ContextTools.handles(tool)) {
            return context;
        }
        if (DocumentTools.handles(tool)) {
            return memoryTool;
        }
        return entries;
    }

    /** The text that tells the model how to use what is offered ({@link Usage#text(boolean, boolean, boolean)}). */
    public String usage() {
        return Usage.text(entries, bank, context);
    }
}
