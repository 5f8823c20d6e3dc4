package dev.engram.tools.host;

import dev.engram.access.rest.Gate;
import dev.engram.contexts.app.ToolResultReads;
import dev.engram.contexts.tools.ContextTools;
import dev.engram.memories.MemoryRules;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * tool_result_read in the caller's context, read as the context's GET reads. A call is checked in this order: the
 * context named (its id checked), a key refused (it only reads), the grant (read on every scope); then the tool runs.
 * A context that does not exist is {@link dev.engram.kernel.NotFound}.
 */
final class ContextToolSet implements ToolSet {

    private final Gate gate;
    private final ToolResultReads reads;

    ContextToolSet(Gate gate, ToolResultReads reads) {
        this.gate = gate;
        this.reads = reads;
    }

    @Override
    public boolean handles(String tool) {
        return ContextTools.handles(tool);
    }

    @Override
    public List<ToolDefinition> perConnection() {
        return ContextTools.definitions();
    }

    @Override
    public ToolResult call(ToolCaller caller, String tool, Optional<Map<String, Object>> arguments) {
        String context = caller.context().orElseThrow(() -> caller.noContext(tool));
        MemoryRules.checkId(context, "context");
        if (caller.sentKey()) {
            throw ToolSet.keyNotTaken(tool);
        }
        String store = caller.store();
        gate.checkReadsMemories(store);
        if (arguments.isEmpty()) {
            return ToolSet.notAnObject("{\"hash\": \"3f2a\", \"start_line\": 1}");
        }
        return reads.call(store, context, arguments.get());
    }

    @Override
    public boolean countsRefusals() {
        return false;
    }
}
