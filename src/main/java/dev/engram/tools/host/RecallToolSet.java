package dev.engram.tools.host;

import dev.engram.access.rest.Gate;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.memories.Bank;
import dev.engram.memories.Recalls;
import dev.engram.memories.Saved;
import dev.engram.memories.tools.RecallTools;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * memory_remember and memory_recall in the caller's bank. A call is checked in this order: the bank named, a key
 * refused on memory_recall (it only reads), the grant (memory_remember: write on every scope and room in the quota
 * of stores; memory_recall: read on every scope); then the tool runs, which checks its arguments and the query's
 * bounds ({@link dev.engram.memories.RecallQuery}).
 */
final class RecallToolSet implements ToolSet {

    private final Gate gate;
    private final Recalls recalls;

    RecallToolSet(Gate gate, Recalls recalls) {
        this.gate = gate;
        this.recalls = recalls;
    }

    @Override
    public boolean handles(String tool) {
        return RecallTools.handles(tool);
    }

    @Override
    public List<ToolDefinition> perConnection() {
        return RecallTools.definitions();
    }

    @Override
    public ToolResult call(ToolCaller caller, String tool, Optional<Map<String, Object>> arguments) {
        Bank bank = caller.bank().orElseThrow(() -> caller.noBank(tool));
        if (caller.sentKey() && !RecallTools.writes(tool)) {
            throw ToolSet.keyNotTaken(tool);
        }
        if (RecallTools.writes(tool)) {
            gate.checkChangesMemories(caller.store());
        } else {
            gate.checkReadsMemories(caller.store());
        }
        Optional<IdempotencyKey> key = caller.key(tool, arguments);
        if (arguments.isEmpty()) {
            return ToolSet.notAnObject("{\"query\": \"...\"}");
        }
        Saved<ToolResult> saved = new RecallTools(recalls.in(caller.store()), bank).call(tool, arguments.get(), key);
        return saved instanceof Saved.Replayed<ToolResult> replayed
                ? ToolResult.replayed(replayed.reply(), Optional.empty()) : saved.value();
    }

    @Override
    public boolean countsRefusals() {
        return true;
    }
}
