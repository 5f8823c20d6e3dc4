package dev.engram.contexts.app;

import dev.engram.contexts.cache.CachedResult;
import dev.engram.contexts.cache.ToolResultRead;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.rest.Params;
import dev.engram.contexts.ContextStore;
import dev.engram.contexts.tools.ContextTools;
import dev.engram.tools.ToolResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Optional;

/**
 * Reads of a context's cached tool outputs, by the route ({@code GET .../tool-results/{hash}}) and by the tool
 * {@code tool_result_read} over REST and MCP, each counted as {@code engram_context_tool_results_read_total} with
 * {@code outcome=hit} or {@code miss}. The caller checks the grant; a context that does not exist is {@code NotFound}
 * and counts as neither.
 */
@ApplicationScoped
public class ToolResultReads {

    private final ContextStore contexts;
    private final Counter hits;
    private final Counter misses;

    ToolResultReads(ContextStore contexts, MeterRegistry registry) {
        this.contexts = contexts;
        this.hits = counter(registry, "hit");
        this.misses = counter(registry, "miss");
    }

    private static Counter counter(MeterRegistry registry, String outcome) {
        return Counter.builder("engram.context.tool_results.read").description("Reads of cached tool results, by "
                + "whether the hash named one").tag("outcome", outcome).register(registry);
    }

    /**
     * The output {@code hash} (a short hash, a full one, or a prefix naming one) names in context {@code context} of
     * {@code store}; empty when none does, when the prefix names several, or when it is no lower-case hex hash.
     */
    public Optional<CachedResult> find(String store, String context, String hash) {
        Optional<CachedResult> found = hash != null && hash.matches("[0-9a-f]{1,64}")
                ? contexts.toolResult(store, context, hash) : checkedEmpty(store, context);
        (found.isPresent() ? hits : misses).increment();
        return found;
    }

    /** For a hash no output can have (not sent to PostgreSQL, which refuses NUL): the context still must exist. */
    private Optional<CachedResult> checkedEmpty(String store, String context) {
        contexts.get(store, context);
        return Optional.empty();
    }

    /** What {@code tool_result_read} answers for a cached output. */
    public record Read(String hash, String shortHash, String toolName, String text) {
    }

    /**
     * A window of the output {@code hash} names in context {@code context} of {@code store}, as the query parameters
     * ask: lines {@code startLine} (1) to {@code startLine + numLines - 1} (500 at most), or only {@code line}; a
     * hash that is no lower-case hex, or a bad parameter, is refused naming it; none found is {@link NotFound}.
     */
    public Read window(String store, String context, String hash, String startLine, String numLines, String line) {
        if (hash == null || !hash.matches("[0-9a-f]{1,64}")) {
            throw new Invalid("hash-format", "hash", "A tool result's hash is 1 to 64 lower-case hex digits.");
        }
        int start = (int) Params.number(startLine, "start_line", 1, Integer.MAX_VALUE, 1);
        int count = (int) Params.number(numLines, "num_lines", 1, ToolResultRead.MAX_LINES, ToolResultRead.MAX_LINES);
        int only = (int) Params.number(line, "line", 1, Integer.MAX_VALUE, 0);
        CachedResult found = find(store, context, hash).orElseThrow(() -> NotFound.toolResult(context, hash));
        ToolResultRead.Answer answer = ToolResultRead.read(found, hash, start, count, only);
        return new Read(found.hash(), found.shortHash(), found.toolName(), answer.text());
    }

    /** One call of {@code tool_result_read} in context {@code context} of {@code store}. */
    public ToolResult call(String store, String context, Map<String, Object> arguments) {
        return new ContextTools(hash -> find(store, context, hash)).call(ContextTools.READ, arguments);
    }
}
