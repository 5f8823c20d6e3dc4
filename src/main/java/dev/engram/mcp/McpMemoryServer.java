package dev.engram.mcp;

import dev.engram.access.Denied;
import dev.engram.tools.rest.WriteRecordJson;
import dev.engram.access.rest.Gate;
import dev.engram.rest.JsonSetup;
import dev.engram.problems.WriteOutcomes;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.EngramException;
import dev.engram.entries.Store;
import dev.engram.entries.Stores;
import dev.engram.entries.render.Render;
import dev.engram.entries.render.RenderOptions;
import dev.engram.entries.render.Rendered;
import dev.engram.entries.render.SessionManifests;
import dev.engram.memories.Recalls;
import dev.engram.entries.tools.EntryTools;
import dev.engram.memories.tools.RecallTools;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolOptions;
import dev.engram.tools.ToolResult;
import io.quarkiverse.mcp.server.JsonRpcErrorCodes;
import io.quarkiverse.mcp.server.McpException;
import io.quarkiverse.mcp.server.MetaKey;
import io.quarkiverse.mcp.server.ResourceManager;
import io.quarkiverse.mcp.server.ResourceResponse;
import io.quarkiverse.mcp.server.TextContent;
import io.quarkiverse.mcp.server.TextResourceContents;
import io.quarkiverse.mcp.server.ToolManager;
import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The memory tools over MCP (Streamable HTTP at {@code /mcp}): the same four tools as REST, and the rendered block
 * as the resource {@code memory://block}. Which store and scopes a connection reaches is read from each request;
 * see {@link McpConnectionSettings}.
 */
@ApplicationScoped
public class McpMemoryServer {

    /** Where a tool result carries its journal record, for a host to keep and the model never to see. */
    static final MetaKey WRITE = MetaKey.from("dev.engram/write");
    static final String BLOCK_URI = "memory://block";

    @Inject
    ToolManager toolManager;

    @Inject
    ResourceManager resourceManager;

    @Inject
    CurrentVertxRequest current;

    @Inject
    Stores stores;

    @Inject
    ToolOptions options;

    @Inject
    SessionManifests sessions;

    @Inject
    WriteOutcomes outcomes;

    @Inject
    JsonSetup rest;

    @Inject
    Gate gate;

    @Inject
    Recalls recalls;

    void register(@Observes StartupEvent started) {
        for (ToolDefinition d : EntryTools.perConnectionDefinitions(options)) {
            registerTool(d, args -> call(d.name(), args));
        }
        for (ToolDefinition d : RecallTools.definitions()) {
            registerTool(d, args -> recall(d.name(), args));
        }
        resourceManager.newResource("memory-block")
                .setUri(BLOCK_URI)
                .setTitle("Memory block")
                .setMimeType("text/markdown")
                .setDescription("What this connection's store remembers, rendered for the model's instructions, "
                        + "with a summary line last. Reading it records what the session was shown.")
                .setHandler(args -> new ResourceResponse(List.of(new TextResourceContents(BLOCK_URI, block(),
                        "text/markdown"))))
                .register();
    }

    private void registerTool(ToolDefinition d, Function<Map<String, Object>, ToolResponse> handler) {
        register(toolManager, d, handler);
    }

    /** Registers the tool {@code d} describes, answered by {@code handler} from the call's arguments. */
    static void register(ToolManager toolManager, ToolDefinition d,
            Function<Map<String, Object>, ToolResponse> handler) {
        toolManager.newTool(d.name())
                .setTitle(d.title())
                .setDescription(d.description())
                .setAnnotations(new ToolManager.ToolAnnotations(d.title(), d.annotations().readOnly(),
                        d.annotations().destructive(), d.annotations().idempotent(), d.annotations().openWorld()))
                .setInputSchema(new JsonObject(d.inputSchema()))
                .setHandler(args -> handler.apply(args.args()))
                .register();
    }

    private ToolResponse call(String tool, Map<String, Object> raw) {
        McpConnectionSettings c;
        try {
            c = settings();
            gate.in(c.store()).checkTools(c.scopes(), c.readScopes());
            if (EntryTools.SAVE.equals(tool)) {
                gate.mayCreate(c.store());
            }
        } catch (EngramException | Denied e) {
            return ToolResponse.error(e.getMessage());
        }
        Store store = stores.store(c.store());
        EntryTools tools;
        try {
            tools = new EntryTools(store, c.scopes(), c.readScopes(), options.searchingIn(c.searchOrder()),
                    () -> c.session().isEmpty() ? Optional.empty() : sessions.inForce(c.store(), c.session()));
        } catch (Invalid e) {
            return ToolResponse.error(e.getMessage());
        }
        ToolResult r = tools.call(tool, plain(raw), c.session());
        r.refusal().ifPresent(kind -> outcomes.refusedTool(tool, kind));
        Map<MetaKey, Object> meta = r.details().map(w -> {
            outcomes.landed(w.change());
            return Map.<MetaKey, Object>of(WRITE, rest.mapper().convertValue(WriteRecordJson.of(w), Map.class));
        }).orElse(Map.of());
        return new ToolResponse(r.isError(), List.of(new TextContent(r.output())), null, meta);
    }

    /** A call of memory_remember or memory_recall in the connection's bank. */
    private ToolResponse recall(String tool, Map<String, Object> raw) {
        McpConnectionSettings c;
        try {
            c = settings();
            if (c.bank().isEmpty()) {
                return ToolResponse.error(tool + " works in a bank, and this connection names none: add "
                        + "?bank=user:alice to the MCP URL (or send an Engram-Bank header).");
            }
            if (RecallTools.writes(tool)) {
                gate.checkChangesMemories(c.store());
            } else {
                gate.checkReadsMemories(c.store());
            }
        } catch (EngramException | Denied e) {
            return ToolResponse.error(e.getMessage());
        }
        ToolResult r = new RecallTools(recalls.in(c.store()), c.bank().get()).call(tool, plain(raw));
        r.refusal().ifPresent(kind -> outcomes.refusedTool(tool, kind));
        return new ToolResponse(r.isError(), List.of(new TextContent(r.output())), null, Map.of());
    }

    /**
     * The connection's block, recorded in its session's manifest log when the session is known. A connection the
     * block cannot be rendered for (no store named, a bad scope, a bound too small, a scope its key is not granted)
     * gets an Invalid params error that says what to change.
     */
    private String block() {
        McpConnectionSettings c;
        Rendered r;
        try {
            c = settings();
            gate.in(c.store()).checkTools(c.scopes(), c.readScopes());
            Store store = stores.store(c.store());
            r = Render.render(store, allScopes(c), RenderOptions.DEFAULT.maxTotalBytes(c.maxTotalBytes()));
        } catch (EngramException | Denied e) {
            throw new McpException(e.getMessage(), JsonRpcErrorCodes.INVALID_PARAMS);
        }
        if (!c.session().isEmpty()) {
            sessions.record(c.store(), c.session(), r.manifest());
        }
        return r.block();
    }

    private static List<dev.engram.kernel.Scope> allScopes(McpConnectionSettings c) {
        List<dev.engram.kernel.Scope> all = new ArrayList<>(c.scopes());
        all.addAll(c.readScopes());
        return all;
    }

    private McpConnectionSettings settings() {
        HttpServerRequest request = current.getCurrent() == null ? null : current.getCurrent().request();
        if (request == null) {
            throw new Invalid("store-missing", "store", "This MCP request carries no HTTP request to read the store "
                    + "from; connect over Streamable HTTP with ?store=<id>.");
        }
        return McpConnectionSettings.of(request);
    }

    /** Arguments as plain maps and lists, whatever JSON types the transport decoded them to. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> plain(Map<String, Object> args) {
        Map<String, Object> out = new LinkedHashMap<>();
        args.forEach((k, v) -> out.put(k, plainValue(v)));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Object plainValue(Object v) {
        if (v instanceof JsonObject o) {
            return plain(o.getMap());
        }
        if (v instanceof JsonArray a) {
            return a.getList().stream().map(McpMemoryServer::plainValue).toList();
        }
        if (v instanceof Map<?, ?> m) {
            return plain((Map<String, Object>) m);
        }
        if (v instanceof List<?> l) {
            return l.stream().map(McpMemoryServer::plainValue).toList();
        }
        return v;
    }
}
