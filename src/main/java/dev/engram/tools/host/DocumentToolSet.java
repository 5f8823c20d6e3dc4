package dev.engram.tools.host;

import dev.engram.access.StoreAccess;
import dev.engram.access.rest.Gate;
import dev.engram.documents.Actor;
import dev.engram.documents.Documents;
import dev.engram.documents.rest.PathGrants;
import dev.engram.documents.tool.MemoryTool;
import dev.engram.documents.tools.DocumentTools;
import dev.engram.kernel.NotFound;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The memory tool over the caller's store's documents. A call is checked in this order: the store, a key refused
 * (its edits apply to the content as it is), the store reached by the grant, room in the quota of stores for a
 * create; then the tool runs, checking each path against the grant ({@link PathGrants}).
 */
final class DocumentToolSet implements ToolSet {

    private final Gate gate;
    private final Documents documents;

    DocumentToolSet(Gate gate, Documents documents) {
        this.gate = gate;
        this.documents = documents;
    }

    @Override
    public boolean handles(String tool) {
        return DocumentTools.handles(tool);
    }

    @Override
    public List<ToolDefinition> perConnection() {
        return List.of(DocumentTools.definition());
    }

    @Override
    public ToolResult call(ToolCaller caller, String tool, Optional<Map<String, Object>> arguments) {
        String store = caller.store();
        if (caller.sentKey()) {
            throw ToolSet.keyNotTaken(tool);
        }
        StoreAccess access = gate.in(store);
        if (!access.reaches()) {
            throw NotFound.store(store);
        }
        if (arguments.isEmpty()) {
            return ToolSet.notAnObject("{\"command\": \"view\", \"path\": \"/memories\"}");
        }
        if ("create".equals(arguments.get().get("command"))) {
            gate.mayCreate(store);
        }
        MemoryTool.Answer a = new MemoryTool(documents).run(store, arguments.get(),
                Actor.ofCaller(gate.caller().id(), caller.session()), PathGrants.of(access));
        return a.isError() ? ToolResult.error("invalid", a.text()) : ToolResult.text(a.text());
    }

    @Override
    public boolean countsRefusals() {
        return false;
    }
}
