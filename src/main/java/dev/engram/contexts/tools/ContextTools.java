package dev.engram.contexts.tools;

import dev.engram.tools.Arguments;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolResult;
import dev.engram.contexts.cache.CachedResult;
import dev.engram.contexts.cache.ToolResultRead;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The tool over a context's cached tool outputs, beside the tools over entries and banks: {@code tool_result_read}
 * (SPEC §7) reads back, by the hash a reference in the prompt names, a window of lines of an output the prompt no
 * longer shows whole. The context is the connection's: a model never names it, so it cannot reach another.
 */
public final class ContextTools {

    /** Reads a window of a cached tool output. */
    public static final String READ = ToolResultRead.NAME;

    private final Function<String, Optional<CachedResult>> cache;

    /** Tools over the cache that {@code cache} looks hashes up in (a short hash, a full one or a unique prefix). */
    public ContextTools(Function<String, Optional<CachedResult>> cache) {
        this.cache = cache;
    }

    /** Whether {@code name} is one of these tools. */
    public static boolean handles(String name) {
        return READ.equals(name);
    }

    /** The tool's definition: the reference's name, description and arguments, the same for every context. */
    public static List<ToolDefinition> definitions() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("hash", Map.of("type", "string", "description", "The short cache hash from the truncation "
                + "nudge message, e.g. \"abc123\". A unique prefix of the full hash is also accepted."));
        properties.put("start_line", lines("1-based line number to start reading from. Defaults to 1."));
        properties.put("num_lines", lines("Maximum number of lines to return. Defaults to "
                + ToolResultRead.MAX_LINES + "."));
        properties.put("line", lines("Return the full content of a single line (1-based line number) instead of a "
                + "window. Takes precedence over start_line/num_lines; only one line is returned."));
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", List.of("hash"));
        schema.put("additionalProperties", false);
        return List.of(new ToolDefinition(READ, "Read a cached tool result", "Read a previously cached tool result "
                + "in fragments. Provide the short hash from a truncation nudge (e.g. \"[This output was truncated "
                + "... hash: abc123 ...]\") along with a 1-based start_line and the number of lines to read. Use this "
                + "to retrieve more content from a truncated tool output without re-executing the original tool.\n\n"
                + "Pass a 1-based `line` to return one whole line instead; `line` takes precedence over "
                + "start_line/num_lines.", schema, new ToolDefinition.Annotations(true, false, true, false)));
    }

    private static Map<String, Object> lines(String description) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", "integer");
        p.put("minimum", 1);
        p.put("description", description);
        return p;
    }

    /**
     * Runs one call. An unknown hash is a {@code not_found} tool error with the reference's text; an argument that
     * is not a whole number of at least 1 is an {@code invalid} one; {@code num_lines} above 500 reads 500.
     */
    public ToolResult call(String name, Map<String, Object> arguments) {
        if (!READ.equals(name)) {
            return ToolResult.error("invalid", "There is no tool \"" + name + "\" here.");
        }
        Arguments args = new Arguments(arguments == null ? Map.of() : arguments);
        try {
            args.only("hash", "start_line", "num_lines", "line");
            String hash = args.string("hash", false);
            if (hash == null || hash.isEmpty()) {
                return ToolResult.error("invalid", ToolResultRead.HASH_REQUIRED);
            }
            int start = args.integer("start_line", 1, Integer.MAX_VALUE).orElse(1);
            int count = args.integer("num_lines", 1, Integer.MAX_VALUE).orElse(ToolResultRead.MAX_LINES);
            int line = args.integer("line", 1, Integer.MAX_VALUE).orElse(0);
            Optional<CachedResult> found = cache.apply(hash);
            if (found.isEmpty()) {
                return ToolResult.error("not_found", ToolResultRead.notFound(hash));
            }
            return ToolResult.text(ToolResultRead.read(found.get(), hash, start, count, line).text());
        } catch (Arguments.Refused e) {
            return ToolResult.error("invalid", e.getMessage());
        }
    }
}
