package dev.engram.mcp;

import dev.engram.memories.tools.RecallTools;
import io.quarkiverse.mcp.server.FilterContext;
import io.quarkiverse.mcp.server.ToolFilter;
import io.quarkiverse.mcp.server.ToolManager;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * Lists memory_remember and memory_recall only to a connection that names a bank ({@code ?bank=} or
 * {@code Engram-Bank}): a model should not see tools every call of which would fail. When the HTTP request cannot be
 * read, the tools are listed, and a call says what the connection lacks.
 */
@Singleton
public class BankToolsFilter implements ToolFilter {

    @Inject
    CurrentVertxRequest current;

    @Override
    public boolean test(ToolManager.ToolInfo tool, FilterContext context) {
        if (!RecallTools.handles(tool.name())) {
            return true;
        }
        var request = current.getCurrent() == null ? null : current.getCurrent().request();
        return request == null || McpConnectionSettings.namesBank(request);
    }
}
