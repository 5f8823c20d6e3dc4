package dev.engram.mcp;

import io.quarkiverse.mcp.server.FilterContext;
import io.quarkiverse.mcp.server.ToolFilter;
import io.quarkiverse.mcp.server.ToolManager;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * Lists to a connection only the tools it is offered ({@link dev.engram.tools.host.Offer}): memory_remember and
 * memory_recall when it names a bank ({@code ?bank=} or {@code Engram-Bank}), tool_result_read when it names a
 * context ({@code ?context=} or {@code Engram-Context}); a model should not see tools every call of which would fail.
 * When the HTTP request cannot be read, every tool is listed, and a call says what the connection lacks.
 */
@Singleton
public class OfferedToolsFilter implements ToolFilter {

    @Inject
    CurrentVertxRequest current;

    @Override
    public boolean test(ToolManager.ToolInfo tool, FilterContext context) {
        var request = current.getCurrent() == null ? null : current.getCurrent().request();
        return request == null || McpConnectionSettings.offer(request).offers(tool.name());
    }
}
