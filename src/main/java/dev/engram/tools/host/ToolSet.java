package dev.engram.tools.host;

import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One set of tools the host serves: the four over entries, the two over a bank, the one over a context. Each runs a
 * call through its own checks in their order (what the caller must name, the grant, the caller's settings, the quota)
 * and turns its tier's way of reporting a replay into {@link ToolResult#replayed()}.
 */
interface ToolSet {

    /** Whether {@code tool} is one of this set's. */
    boolean handles(String tool);

    /** The set's definitions where the caller's settings are not known yet, as an MCP server registers them. */
    List<ToolDefinition> perConnection();

    /**
     * Runs one call for {@code caller}; {@code arguments} is empty when the call's arguments are not a JSON object.
     * A refusal before the tool runs (a setting missing or invalid, a grant or quota refused) is thrown.
     */
    ToolResult call(ToolCaller caller, String tool, Optional<Map<String, Object>> arguments);

    /** Whether the set's refusals count as refused writes ({@code engram_writes_total}). */
    boolean countsRefusals();

    /** The refusal of an idempotency key sent with {@code tool}, which only reads. */
    static Invalid keyNotTaken(String tool) {
        return new Invalid("idempotency-key-not-taken", IdempotencyKey.HEADER, tool + " only reads, so it takes no "
                + "Idempotency-Key; send the call without it.");
    }

    /** The error result of a call whose arguments are not a JSON object; {@code example} shows one. */
    static ToolResult notAnObject(String example) {
        return ToolResult.error("invalid", "The arguments are not a JSON object; send them as an object, such as "
                + example + ".");
    }
}
