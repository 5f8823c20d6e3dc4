package dev.engram.mcp;

import dev.engram.access.Denied;
import dev.engram.contexts.app.ToolResultReads;
import dev.engram.access.rest.Gate;
import dev.engram.kernel.EngramException;
import dev.engram.contexts.tools.ContextTools;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolResult;
import io.quarkiverse.mcp.server.TextContent;
import io.quarkiverse.mcp.server.ToolManager;
import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;

/**
 * tool_result_read over MCP, in the context the connection names ({@code /mcp?store=demo&context=run-1}, or the
 * header {@code Engram-Context}); reading takes the grant a context's GET takes. {@link ContextToolsFilter} lists it
 * only to such a connection.
 */
@ApplicationScoped
public class McpContextTools {

    @Inject
    ToolManager toolManager;

    @Inject
    CurrentVertxRequest current;

    @Inject
    Gate gate;

    @Inject
    ToolResultReads reads;

    void register(@Observes StartupEvent started) {
        for (ToolDefinition d : ContextTools.definitions()) {
            McpMemoryServer.register(toolManager, d, args -> call(d.name(), args));
        }
    }

    private ToolResponse call(String tool, Map<String, Object> raw) {
        ToolResult r;
        try {
            HttpServerRequest request = current.getCurrent() == null ? null : current.getCurrent().request();
            if (request == null) {
                return ToolResponse.error(tool + " needs the HTTP request to read the store and context from; "
                        + "connect over Streamable HTTP with ?store=<id>&context=<id>.");
            }
            McpConnectionSettings c = McpConnectionSettings.of(request);
            if (c.context().isEmpty()) {
                return ToolResponse.error(tool + " reads a context's cached tool results, and this connection names "
                        + "none: add ?context=run-1 to the MCP URL (or send an Engram-Context header).");
            }
            gate.checkReadsMemories(c.store());
            r = reads.call(c.store(), c.context().get(), McpMemoryServer.plain(raw));
        } catch (EngramException | Denied e) {
            return ToolResponse.error(e.getMessage());
        }
        return new ToolResponse(r.isError(), List.of(new TextContent(r.output())), null, Map.of());
    }
}
