package dev.engram.mcp;

import dev.engram.kernel.EngramException;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.host.Offer;
import dev.engram.tools.host.ToolHost;
import io.quarkiverse.mcp.server.ToolManager;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code tools/list} for one connection. The MCP server registers each tool once, with one input schema for every
 * connection, where the scopes a connection may write are only known from its URL; so Engram answers the listing
 * itself, with the schemas REST gives for the same scopes: {@code scope} an enum of the connection's writable
 * scopes, memory_search's {@code scopes} an enum of all it reads, with the patterns and bounds of names and
 * contents. The tools listed are those the connection is offered ({@link OfferedToolsFilter}).
 */
@ApplicationScoped
public class McpToolList {

    @Inject
    ToolManager toolManager;

    @Inject
    ToolHost host;

    /**
     * The result of {@code tools/list} for the connection {@code ctx} belongs to, handed to {@code result} off the
     * event loop (the store's entry bound is read from the database); empty when the connection's settings are wrong,
     * which the MCP server's own listing then serves (and a call says what to change).
     */
    void list(RoutingContext ctx, Consumer<Optional<JsonObject>> result) {
        ctx.vertx().executeBlocking(() -> {
            try {
                return Optional.of(tools(McpConnectionSettings.of(ctx.request()), ctx));
            } catch (EngramException e) {
                return Optional.<JsonObject>empty();
            }
        }, false).onComplete(done -> result.accept(done.succeeded() ? done.result() : Optional.empty()));
    }

    private JsonObject tools(McpConnectionSettings c, RoutingContext ctx) {
        Map<String, ToolDefinition> scoped = host.scopedEntryDefinitions(new McpToolCaller(c)).stream()
                .collect(Collectors.toMap(ToolDefinition::name, d -> d));
        Offer offer = McpConnectionSettings.offer(ctx.request());
        JsonArray tools = new JsonArray();
        for (ToolManager.ToolInfo info : toolManager) {
            if (!offer.offers(info.name())) {
                continue;
            }
            JsonObject tool = info.asJson().copy();
            ToolDefinition d = scoped.get(info.name());
            if (d != null) {
                tool.put("inputSchema", new JsonObject(d.inputSchema()));
            }
            tools.add(tool);
        }
        return new JsonObject().put("tools", tools);
    }
}
