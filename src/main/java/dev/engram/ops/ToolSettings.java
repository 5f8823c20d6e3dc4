package dev.engram.ops;

import dev.engram.entries.SearchOrder;
import dev.engram.tools.ToolOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The tools' options as configured, for the REST tools and MCP alike. */
@ApplicationScoped
public class ToolSettings {

    /**
     * A record cannot be proxied, so the options are a singleton rather than application-scoped. A search order
     * other than {@code name} or {@code relevance} stops the start, naming the setting.
     */
    @Produces
    @Singleton
    ToolOptions toolOptions(EngramConfig config) {
        return new ToolOptions(ToolOptions.DEFAULT_SEARCH_LIMIT, ToolOptions.DEFAULT_SEARCH_BYTES,
                config.patchDeadline(), SearchOrder.parse(config.tools().searchOrder(), "engram.tools.search-order"));
    }
}
