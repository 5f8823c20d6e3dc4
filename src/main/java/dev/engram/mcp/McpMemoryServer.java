package dev.engram.mcp;

import dev.engram.access.Denied;
import dev.engram.tools.rest.WriteRecordJson;
import dev.engram.access.rest.Gate;
import dev.engram.rest.JsonSetup;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.EngramException;
import dev.engram.entries.Store;
import dev.engram.entries.Stores;
import dev.engram.entries.render.RenderCache;
import dev.engram.entries.render.RenderOptions;
import dev.engram.entries.render.Rendered;
import dev.engram.entries.render.SessionManifests;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolResult;
import dev.engram.tools.host.ToolHost;
import dev.engram.ops.EngramConfig;
import dev.engram.contexts.tools.ContextTools;
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
 * The model tools over MCP (Streamable HTTP at {@code /mcp}): every tool the {@link ToolHost} serves, as REST serves
 * them, and the rendered block as the resource {@code memory://block}. Which store and scopes a connection reaches is read from each request;
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
    SessionManifests sessions;

    @Inject
    RenderCache renders;

    @Inject
    JsonSetup rest;

    @Inject
    Gate gate;

    @Inject
    ToolHost host;

    @Inject
    EngramConfig config;

    void register(@Observes StartupEvent started) {
        for (ToolDefinition d : host.perConnectionDefinitions()) {
            register(toolManager, d, args -> call(d.name(), args));
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

    /**
     * One call, run by the {@link ToolHost} for the connection's settings. What the connection must change (its
     * settings, its grant, its quota) is a tool error with the refusal's text, as a mistake of the model is; a write's
     * journal record rides in the result's {@code _meta}, for the host.
     */
    private ToolResponse call(String tool, Map<String, Object> raw) {
        ToolResult r;
        try {
            r = host.call(new McpToolCaller(settings(tool)), tool, Optional.of(plain(raw)));
        } catch (EngramException | Denied e) {
            return ToolResponse.error(e.getMessage());
        }
        Map<MetaKey, Object> meta = r.details().<Map<MetaKey, Object>>map(w -> Map.of(WRITE,
                rest.mapper().convertValue(WriteRecordJson.of(w), Map.class))).orElse(Map.of());
        return new ToolResponse(r.isError(), List.of(new TextContent(r.output())), null, meta);
    }

    /**
     * The connection's block, recorded in its session's manifest log when the session is known. A connection the
     * block cannot be rendered for (no store named, a bad scope, a bound too small or over the render's ceiling,
     * a scope its key is not granted)
     * gets an Invalid params error that says what to change.
     */
    private String block() {
        McpConnectionSettings c;
        Rendered r;
        try {
            c = settings();
            gate.in(c.store()).checkTools(c.scopes(), c.readScopes());
            Store store = stores.store(c.store());
            r = renders.render(store, allScopes(c), RenderOptions.DEFAULT.maxTotalBytes(c.maxTotalBytes())
                    .withinCeiling(config.render().maxTotalBytesCeiling())).rendered();
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
        return settings("");
    }

    /** The settings of the connection that calls {@code tool} ("" for none), read from its HTTP request. */
    private McpConnectionSettings settings(String tool) {
        HttpServerRequest request = current.getCurrent() == null ? null : current.getCurrent().request();
        if (request == null) {
            throw new Invalid("store-missing", "store", ContextTools.handles(tool) ? tool + " needs the HTTP request "
                    + "to read the store and context from; connect over Streamable HTTP with ?store=<id>&context=<id>."
                    : "This MCP request carries no HTTP request to read the store from; connect over Streamable HTTP "
                    + "with ?store=<id>.");
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
