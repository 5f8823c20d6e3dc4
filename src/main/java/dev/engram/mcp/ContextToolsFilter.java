package dev.engram.mcp;

import dev.engram.contexts.tools.ContextTools;
import io.quarkiverse.mcp.server.FilterContext;
import io.quarkiverse.mcp.server.ToolFilter;
import io.quarkiverse.mcp.server.ToolManager;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * Lists tool_result_read only to a connection that names a context ({@code ?context=} or {@code Engram-Context}):
 * without one, every call would fail. When the HTTP request cannot be read, the tool is listed, and a call says what
 * the connection lacks.
 */
@Singleton
public class ContextToolsFilter implements ToolFilter {

    @Inject
    CurrentVertxRequest current;

    @Override
    public boolean test(ToolManager.ToolInfo tool, FilterContext context) {
        if (!ContextTools.handles(tool.name())) {
            return true;
        }
        var request = current.getCurrent() == null ? null : current.getCurrent().request();
        return request == null || McpConnectionSettings.namesContext(request);
    }
}
