package dev.engram.entries.rest;

import dev.engram.access.rest.Gate;
import dev.engram.entries.Store;
import dev.engram.entries.Stores;
import dev.engram.entries.render.RenderCache;
import dev.engram.entries.render.RenderOptions;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import dev.engram.ops.EngramConfig;
import dev.engram.rest.Params;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * A render of the block as a request asks for it, the one way every page and resource that shows the block reads it:
 * the store, the scopes the current caller reads of those asked (every scope it reads when none), and the bounds read
 * from {@code max_total_bytes} and {@code scope_max_bytes=scope:n}, each at most the service's ceiling; then the
 * render, kept while the store's entries are unchanged ({@link RenderCache}).
 */
@ApplicationScoped
public class RenderRequests {

    @Inject
    Stores stores;

    @Inject
    Gate gate;

    @Inject
    EngramConfig config;

    @Inject
    RenderCache renders;

    /** What a request asks to render: the store, its scopes in order (empty for all it holds), and the bounds. */
    public record Asked(Store store, List<Scope> scopes, RenderOptions options) {

        public Asked {
            scopes = List.copyOf(scopes);
        }
    }

    /**
     * The render {@code scopes}, {@code max} and {@code caps} ask of {@code storeId} for the current caller:
     * {@link Invalid} for a malformed store, scope, bound or cap, or one over the ceiling; a scope the caller does
     * not read is refused as the access says ({@link dev.engram.access.StoreAccess#narrowReads}).
     */
    public Asked asked(String storeId, List<String> scopes, String max, List<String> caps) {
        Store store = stores.store(Params.store(storeId));
        List<Scope> read = gate.in(storeId).narrowReads(Params.scopes(scopes));
        int ceiling = config.render().maxTotalBytesCeiling();
        RenderOptions options = RenderOptions.DEFAULT.maxTotalBytes((int) Params.number(max, "max_total_bytes",
                Integer.MIN_VALUE, ceiling, RenderOptions.DEFAULT_MAX_TOTAL_BYTES));
        for (String cap : caps == null ? List.<String>of() : caps) {
            int colon = cap.lastIndexOf(':');
            if (colon < 1) {
                throw new Invalid("scope-cap-form", "scope_max_bytes", "scope_max_bytes takes scope:bytes, such as "
                        + "environment:2000; not \"" + cap + "\".");
            }
            options = options.scopeCap(Params.scope(cap.substring(0, colon)),
                    (int) Params.number(cap.substring(colon + 1), "scope_max_bytes", Integer.MIN_VALUE,
                            ceiling, 0));
        }
        return new Asked(store, read, options);
    }

    /** The block {@code asked} renders; {@link dev.engram.kernel.Budget} when its bounds cannot be met. */
    public RenderCache.Made render(Asked asked) {
        return renders.render(asked.store(), asked.scopes(), asked.options());
    }
}
