package dev.engram.tools.host;

import dev.engram.entries.SearchOrder;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import dev.engram.memories.Bank;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Who calls the tools and in what they work, as one transport reads it from its request: the store, the scopes the
 * tools write and read, the session, the bank, the context. The grant is the authenticated caller of the request,
 * which the host checks against these. The host asks for each value only when the tool it runs needs it, in the order
 * of its checks, so a transport may read (and refuse) each lazily: a recall call never reads the scopes.
 */
public interface ToolCaller {

    /** The store's id, checked; {@link Invalid} when it is not one. */
    String store();

    /** The scopes the entry tools write, in the order offered. */
    List<Scope> scopes();

    /** The scopes memory_search reads and the writers refuse. */
    List<Scope> readScopes();

    /** The session the writes are attributed to; "" for none. */
    String session();

    /** The order memory_search lists in; empty for the configured one. */
    Optional<SearchOrder> searchOrder();

    /** The bank of the recall tools; empty when the caller names none. */
    Optional<Bank> bank();

    /** The context of tool_result_read, as named (the host checks its id); empty when the caller names none. */
    Optional<String> context();

    /** Whether the call came with an idempotency key, which a tool that only reads refuses. */
    boolean sentKey();

    /** The call's idempotency key for {@code tool} with {@code arguments} (empty: not an object); empty if none. */
    Optional<IdempotencyKey> key(String tool, Optional<Map<String, Object>> arguments);

    /** The refusal of {@code tool}, which works in a bank, when the caller names none: what to send. */
    Invalid noBank(String tool);

    /** The refusal of {@code tool}, which reads a context, when the caller names none: what to send. */
    Invalid noContext(String tool);
}
