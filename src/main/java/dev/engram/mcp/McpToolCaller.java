package dev.engram.mcp;

import dev.engram.entries.SearchOrder;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import dev.engram.memories.Bank;
import dev.engram.tools.host.ToolCaller;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The caller of a tool over MCP: the connection's settings, read (and checked) from its request. MCP keeps no
 * idempotency keys (the envelope refuses one), so a call carries none.
 */
record McpToolCaller(McpConnectionSettings c) implements ToolCaller {

    @Override
    public String store() {
        return c.store();
    }

    @Override
    public List<Scope> scopes() {
        return c.scopes();
    }

    @Override
    public List<Scope> readScopes() {
        return c.readScopes();
    }

    @Override
    public String session() {
        return c.session();
    }

    @Override
    public Optional<SearchOrder> searchOrder() {
        return c.searchOrder();
    }

    @Override
    public Optional<Bank> bank() {
        return c.bank();
    }

    @Override
    public Optional<String> context() {
        return c.context();
    }

    @Override
    public boolean sentKey() {
        return false;
    }

    @Override
    public Optional<IdempotencyKey> key(String tool, Optional<Map<String, Object>> arguments) {
        return Optional.empty();
    }

    @Override
    public Invalid noBank(String tool) {
        return new Invalid("bank-missing", "bank", tool + " works in a bank, and this connection names none: add "
                + "?bank=user:alice to the MCP URL (or send an Engram-Bank header).");
    }

    @Override
    public Invalid noContext(String tool) {
        return new Invalid("context-missing", "context", tool + " reads a context's cached tool results, and this "
                + "connection names none: add ?context=run-1 to the MCP URL (or send an Engram-Context header).");
    }
}
