package dev.engram.tools.host;

import dev.engram.access.rest.Gate;
import dev.engram.contexts.tools.ContextTools;
import dev.engram.entries.Replayed;
import dev.engram.entries.SearchOrder;
import dev.engram.entries.Store;
import dev.engram.entries.Stores;
import dev.engram.entries.render.Manifest;
import dev.engram.entries.render.SessionManifests;
import dev.engram.entries.tools.EntryTools;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Scope;
import dev.engram.memories.tools.RecallTools;
import dev.engram.documents.tools.DocumentTools;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolOptions;
import dev.engram.tools.ToolResult;
import dev.engram.tools.WriteRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * memory_save, memory_patch, memory_forget and memory_search in the caller's scopes. A call is checked in this order:
 * the session and the search order as sent, the store, the scopes, the grant on them, the scopes as a set (at least
 * one writable, none twice), then, for memory_save, the caller's quota of stores; then the tool runs.
 */
final class EntryToolSet implements ToolSet {

    private final Gate gate;
    private final Stores stores;
    private final SessionManifests sessions;
    private final ToolOptions options;

    EntryToolSet(Gate gate, Stores stores, SessionManifests sessions, ToolOptions options) {
        this.gate = gate;
        this.stores = stores;
        this.sessions = sessions;
        this.options = options;
    }

    @Override
    public boolean handles(String tool) {
        return !RecallTools.handles(tool) && !ContextTools.handles(tool) && !DocumentTools.handles(tool);
    }

    @Override
    public List<ToolDefinition> perConnection() {
        return EntryTools.perConnectionDefinitions(options);
    }

    /**
     * The four definitions with the caller's scopes in their schemas; the caller's grant on them checked first when
     * {@code granted} (a listing that tells what the key may do), else not (a listing the key's calls are checked on).
     */
    List<ToolDefinition> definitions(ToolCaller caller, boolean granted) {
        return tools(caller, Optional.empty(), Optional::empty, granted, "").definitions();
    }

    @Override
    public ToolResult call(ToolCaller caller, String tool, Optional<Map<String, Object>> arguments) {
        String session = caller.session();
        Optional<SearchOrder> order = caller.searchOrder();
        Supplier<Optional<Manifest>> shown = () -> session.isEmpty() ? Optional.empty()
                : sessions.inForce(caller.store(), session);
        EntryTools tools = tools(caller, order, shown, true, gate.caller().id());
        Optional<IdempotencyKey> key = caller.key(tool, arguments);
        if (EntryTools.SAVE.equals(tool)) {
            gate.mayCreate(caller.store());
        }
        if (arguments.isEmpty()) {
            return ToolResult.error("invalid", "The arguments are not a JSON object; send the tool's arguments as an "
                    + "object, such as {\"name\": \"...\", \"content\": \"...\"}.");
        }
        EntryTools.Called called = tools.call(tool, arguments.get(), session, key);
        if (called.replayed().isEmpty()) {
            return called.result();
        }
        Replayed replayed = called.replayed().get();
        String output = replayed.first().reply().isEmpty() ? "This call was made before, and what it wrote has "
                + "since been erased." : replayed.first().reply();
        return ToolResult.replayed(output, Optional.of(new WriteRecord(tool, replayed.first().change())));
    }

    /** The tools for {@code caller}; their writes are recorded as made by {@code by} (the caller's ID, or ""). */
    private EntryTools tools(ToolCaller caller, Optional<SearchOrder> order,
            Supplier<Optional<Manifest>> shown, boolean granted, String by) {
        Store store = stores.store(caller.store());
        List<Scope> writable = caller.scopes();
        List<Scope> readOnly = caller.readScopes();
        if (granted) {
            gate.in(caller.store()).checkTools(writable, readOnly);
        }
        return new EntryTools(store, writable, readOnly, options.searchingIn(order), shown, by);
    }

    @Override
    public boolean countsRefusals() {
        return true;
    }
}
