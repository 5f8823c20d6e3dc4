package dev.engram.console.entries;

import dev.engram.entries.render.ManifestEntry;
import dev.engram.entries.render.Part;
import dev.engram.entries.render.RenderOptions;
import dev.engram.entries.render.Rendered;
import dev.engram.kernel.Scope;
import dev.engram.kernel.Utf8;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a rendered block spends its bound, as the render preview shows it: the bytes each scope's parts take (its
 * heading, its entries, its omission line, each with the blank line before it), and what the title and the summary
 * take; the rows add up to the block's own size.
 *
 * @param bound the block's bound ({@code max_total_bytes})
 * @param used the block's size in UTF-8 bytes
 * @param scopes one row per scope, in the block's order
 * @param frame what the title and the summary take, with the blank line before the summary
 */
public record BlockBudget(int bound, int used, List<ScopeShare> scopes, int frame) {

    /**
     * One scope's share of the block.
     *
     * @param cap the scope's cap ({@code scope_max_bytes}), or null when it has none
     * @param shown its entries the block holds
     * @param omitted its entries left out
     */
    public record ScopeShare(String scope, int bytes, Integer cap, int shown, int omitted) {

        /** Whether the scope has a cap. */
        public boolean capped() {
            return cap != null;
        }
    }

    public BlockBudget {
        scopes = List.copyOf(scopes);
    }

    /** The budget of {@code rendered} within {@code options}. */
    public static BlockBudget of(Rendered rendered, RenderOptions options) {
        Map<String, int[]> byScope = new LinkedHashMap<>();
        int frame = 0;
        int used = 0;
        List<Part> parts = rendered.parts();
        for (int i = 0; i < parts.size(); i++) {
            Part p = parts.get(i);
            int bytes = Utf8.length(p.text()) + (i == 0 ? 0 : Part.SEPARATOR.length());
            used += bytes;
            String scope = scopeOf(p.id());
            if (scope == null) {
                frame += bytes;
            } else {
                byScope.computeIfAbsent(scope, s -> new int[3])[0] += bytes;
            }
        }
        for (ManifestEntry e : rendered.manifest().entries()) {
            byScope.computeIfAbsent(e.scope().value(), s -> new int[3])[1]++;
        }
        for (ManifestEntry e : rendered.manifest().omitted()) {
            byScope.computeIfAbsent(e.scope().value(), s -> new int[3])[2]++;
        }
        List<ScopeShare> rows = new ArrayList<>();
        byScope.forEach((scope, n) -> rows.add(new ScopeShare(scope, n[0], options.scopeCaps().get(Scope.of(scope)),
                n[1], n[2])));
        return new BlockBudget(options.maxTotalBytes(), used, rows, frame);
    }

    /** What is left of the bound. */
    public int free() {
        return Math.max(0, bound - used);
    }

    /**
     * The scope a part belongs to: {@code memory/<scope>}, {@code memory/<scope>/<name>} and
     * {@code memory/<scope>:omitted} are the scope's; the title and the summary are no scope's (null).
     */
    static String scopeOf(String partId) {
        if (!partId.startsWith("memory/")) {
            return null;
        }
        String rest = partId.substring("memory/".length());
        int end = rest.length();
        for (int i = 0; i < rest.length(); i++) {
            char c = rest.charAt(i);
            if (c == '/' || c == ':') {
                end = i;
                break;
            }
        }
        return rest.substring(0, end);
    }
}
