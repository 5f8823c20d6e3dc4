package dev.engram.entries.render;

import dev.engram.kernel.Invalid;
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

    /**
     * These options, refused with {@link Invalid} ({@code number-range}, naming the bound and the ceiling) when the
     * block's bound or a scope's cap is over {@code ceiling}, the service's {@code engram.render.max-total-bytes-ceiling}:
     * the one rule every way of asking for a block keeps.
     */
    public RenderOptions withinCeiling(int ceiling) {
        return withinCeiling(ceiling, "");
    }

    /** As {@link #withinCeiling(int)}, the fields named with {@code prefix} (such as {@code "memory."}). */
    public RenderOptions withinCeiling(int ceiling, String prefix) {
        if (maxTotalBytes > ceiling) {
            throw new Invalid("number-range", prefix + "max_total_bytes", prefix + "max_total_bytes must be at most "
                    + ceiling + " (the render's ceiling), not " + maxTotalBytes + ".");
        }
        scopeCaps.forEach((scope, cap) -> {
            if (cap > ceiling) {
                throw new Invalid("number-range", prefix + "scope_max_bytes", prefix + "scope_max_bytes of " + scope
                        + " must be at most " + ceiling + " (the render's ceiling), not " + cap + ".");
            }
        });
        return this;
    }

    /** These options with {@code scope} capped at {@code n} bytes; the last cap given for a scope holds. */
    public RenderOptions scopeCap(Scope scope, int n) {
        Map<Scope, Integer> caps = new HashMap<>(scopeCaps);
        caps.put(scope, n);
        return new RenderOptions(maxTotalBytes, caps);
    }
}
