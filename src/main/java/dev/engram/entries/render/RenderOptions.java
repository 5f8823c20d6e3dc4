package dev.engram.entries.render;

import dev.engram.kernel.Scope;
import java.util.HashMap;
import java.util.Map;

/**
 * The bounds of a render: the block's own size, and optional caps on what one scope's entries may take of it.
 *
 * @param maxTotalBytes the bound on the joined block, summary and headings included; under 1 is refused
 * @param scopeCaps per scope, the most its entries and its omission line may add, separators included
 */
public record RenderOptions(int maxTotalBytes, Map<Scope, Integer> scopeCaps) {

    /** The bound a render starts with. */
    public static final int DEFAULT_MAX_TOTAL_BYTES = 32 * 1024;
    /** 32 KiB and no caps. */
    public static final RenderOptions DEFAULT = new RenderOptions(DEFAULT_MAX_TOTAL_BYTES, Map.of());

    public RenderOptions {
        scopeCaps = scopeCaps == null ? Map.of() : Map.copyOf(scopeCaps);
    }

    /** These options with the block bounded by {@code n} bytes. */
    public RenderOptions maxTotalBytes(int n) {
        return new RenderOptions(n, scopeCaps);
    }

    /** These options with {@code scope} capped at {@code n} bytes; the last cap given for a scope holds. */
    public RenderOptions scopeCap(Scope scope, int n) {
        Map<Scope, Integer> caps = new HashMap<>(scopeCaps);
        caps.put(scope, n);
        return new RenderOptions(maxTotalBytes, caps);
    }
}
