package dev.engram.ops;

import dev.engram.entries.render.RenderCache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** This replica's kept renders, one cache for every way of asking for a block (REST, contexts, MCP). */
@ApplicationScoped
public class RenderCaching {

    @Produces
    @Singleton
    RenderCache renderCache(EngramConfig config) {
        return new RenderCache(config.render().cacheBytes());
    }
}
