package dev.engram.tools.host;

import dev.engram.access.rest.Gate;
import dev.engram.contexts.app.ToolResultReads;
import dev.engram.contexts.tools.ContextTools;
import dev.engram.documents.Documents;
import dev.engram.documents.tools.DocumentTools;
import dev.engram.entries.Stores;
import dev.engram.entries.render.SessionManifests;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.Recalls;
import dev.engram.memories.tools.RecallTools;
import dev.engram.problems.WriteOutcomes;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolOptions;
import dev.engram.tools.ToolResult;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one host of every model tool, whatever carries the call (the REST tools API, MCP): the registry of the tool
 * sets (entries, bank, context), what a caller is offered, and the running of a call through its set's checks, with
 * the metrics. A transport reads the caller from its request ({@link ToolCaller}), hands the call here, and shapes
 * the {@link ToolResult} for its wire; a tool is registered here once for every transport.
 */
@ApplicationScoped
public class ToolHost {

    private final Gate gate;
    private final WriteOutcomes outcomes;
    private final EntryToolSet entries;
    private final List<ToolSet> sets;

    @Inject
    ToolHost(Gate gate, Stores stores, SessionManifests sessions, ToolOptions options, Recalls recalls,
            ToolResultReads reads, WriteOutcomes outcomes, Documents documents) {
        this.gate = gate;
        this.outcomes = outcomes;
        this.entries = new EntryToolSet(gate, stores, sessions, options);
        this.sets = List.of(entries, new RecallToolSet(gate, recalls), new ContextToolSet(gate, reads),
                new DocumentToolSet(gate, documents));
    }

    /** Every tool, in the order listed, with the schemas of a caller not known yet: what an MCP server registers. */
    public List<ToolDefinition> perConnectionDefinitions() {
        List<ToolDefinition> all = new ArrayList<>();
        sets.forEach(s -> all.addAll(s.perConnection()));
        return all;
    }

    /**
     * The tools {@code offer} names for {@code caller}, with its scopes in the entry tools' schemas, after checking
     * what it names (the scopes, the bank, the context) and its grant on them: the entry tools take the grant on
     * the scopes, the others read on every scope. The order of the checks: the entry tools' (the store, the scopes,
     * the grant, the scopes as a set), the bank, the context, then the grant on the memories.
     */
    public List<ToolDefinition> offered(ToolCaller caller, Offer offer) {
        List<ToolDefinition> all = new ArrayList<>();
        if (offer.entries()) {
            all.addAll(entries.definitions(caller, true));
        }
        if (offer.bank()) {
            caller.bank();
            all.addAll(RecallTools.definitions());
        }
        if (offer.context()) {
            caller.context().ifPresent(id -> MemoryRules.checkId(id, "context"));
            all.addAll(ContextTools.definitions());
        }
        if (offer.bank() || offer.context()) {
            gate.checkReadsMemories(caller.store());
        }
        if (offer.memoryTool()) {
            all.add(DocumentTools.definition());
        }
        return all;
    }

    /**
     * The entry tools' definitions with {@code caller}'s scopes in their schemas, its grant unchecked (each call
     * checks it): for a listing that shows a connection the schemas it will be held to.
     */
    public List<ToolDefinition> scopedEntryDefinitions(ToolCaller caller) {
        return entries.definitions(caller, false);
    }

    /**
     * Runs one call of {@code tool} for {@code caller}; {@code arguments} is empty when the call's arguments were not
     * a JSON object. A mistake the model can fix is an error result; what the caller must fix (a setting missing or
     * invalid, the grant, the quota) is thrown, before anything is written. A write that landed and a refusal are
     * counted; a replayed answer is not.
     */
    public ToolResult call(ToolCaller caller, String tool, Optional<Map<String, Object>> arguments) {
        ToolSet set = sets.stream().filter(s -> s.handles(tool)).findFirst().orElse(entries);
        ToolResult r = set.call(caller, tool, arguments);
        if (!r.replayed()) {
            r.details().ifPresent(w -> outcomes.landed(w.change()));
            if (set.countsRefusals()) {
                r.refusal().ifPresent(kind -> outcomes.refusedTool(tool, kind));
            }
        }
        return r;
    }
}
