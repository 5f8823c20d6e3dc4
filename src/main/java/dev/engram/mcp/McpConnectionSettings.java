package dev.engram.mcp;

import dev.engram.entries.EntryRules;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import dev.engram.entries.SearchOrder;
import dev.engram.memories.Bank;
import dev.engram.memories.MemoryRules;
import dev.engram.tools.host.Offer;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one MCP connection reaches, read from each request of it: the store, the writable and read-only scopes, and
 * the session that writes. Each can be a query parameter of the MCP URL or a header, the header winning. Over the
 * legacy SSE transport the query is the SSE URL's, which the message endpoint it names repeats
 * ({@code quarkus.mcp.server.http.message-endpoint.include-query-params}):
 *
 * <pre>
 * store        ?store=demo              Engram-Store: demo            (required)
 * scopes       ?scope=user&amp;scope=project  Engram-Scopes: user,project    (default: user)
 * read scopes  ?read_scope=rules         Engram-Read-Scopes: rules
 * session      ?session=slack-7f3a       Engram-Session: slack-7f3a    (default: the MCP session ID)
 * block bound  ?max_total_bytes=8000     Engram-Max-Total-Bytes: 8000  (default: 32768)
 * bank         ?bank=user:alice          Engram-Bank: user:alice         (memory_remember and memory_recall)
 * context      ?context=run-1            Engram-Context: run-1          (tool_result_read)
 * search order ?search_order=relevance   Engram-Search-Order: relevance (default: engram.tools.search-order)
 * </pre>
 *
 * @param bank the bank of memories the two recall tools use; empty when the connection names none (the tools are
 *     then not listed)
 * @param context the context whose cached tool results {@code tool_result_read} reads; empty when the connection
 *     names none (the tool is then not listed)
 * @param searchOrder the order memory_search lists in; empty when the connection names none (the configured one)
 */
record McpConnectionSettings(String store, List<Scope> scopes, List<Scope> readScopes, String session,
        int maxTotalBytes, Optional<Bank> bank, Optional<String> context, Optional<SearchOrder> searchOrder) {

    static final String DEFAULT_SCOPE = "user";

    static McpConnectionSettings of(HttpServerRequest request) {
        String store = value(request, "Engram-Store", "store");
        if (store == null || store.isEmpty()) {
            throw new Invalid("store-missing", "store", "This MCP connection names no store. Add ?store=<id> to the "
                    + "MCP URL, or send an Engram-Store header.");
        }
        EntryRules.checkStoreId(store);
        List<Scope> scopes = scopes(request, "Engram-Scopes", "scope");
        String session = value(request, "Engram-Session", "session");
        if (session == null) {
            session = request.getHeader("Mcp-Session-Id");
        }
        String max = value(request, "Engram-Max-Total-Bytes", "max_total_bytes");
        int bound;
        try {
            bound = max == null ? 32 * 1024 : Integer.parseInt(max.trim());
        } catch (NumberFormatException e) {
            throw new Invalid("number-range", "max_total_bytes", "max_total_bytes must be a whole number.");
        }
        String bank = value(request, "Engram-Bank", "bank");
        String context = value(request, "Engram-Context", "context");
        if (context != null) {
            MemoryRules.checkId(context, "context");
        }
        String order = value(request, "Engram-Search-Order", "search_order");
        return new McpConnectionSettings(store, scopes.isEmpty() ? List.of(new Scope(DEFAULT_SCOPE)) : scopes,
                scopes(request, "Engram-Read-Scopes", "read_scope"), session == null ? "" : session, bound,
                bank == null ? Optional.empty() : Optional.of(Bank.parse(bank)), Optional.ofNullable(context),
                order == null ? Optional.empty() : Optional.of(SearchOrder.parse(order, "search_order")));
    }

    /**
     * The tools the request's connection is offered, read without reading (or refusing) the rest of the settings:
     * the entry tools always (a connection writes scope user when it names none), the bank's and the context's
     * when it names them.
     */
    static Offer offer(HttpServerRequest request) {
        return Offer.of(true, namesBank(request), namesContext(request), asksMemoryTool(request));
    }

    /** Whether the request asks for the memory tool ({@code Engram-Memory-Tool: true}, or {@code memory_tool=true}). */
    static boolean asksMemoryTool(HttpServerRequest request) {
        return "true".equals(value(request, "Engram-Memory-Tool", "memory_tool"));
    }

    /** Whether the request names a bank, without reading (or refusing) the rest of the settings. */
    static boolean namesBank(HttpServerRequest request) {
        return value(request, "Engram-Bank", "bank") != null;
    }

    /** Whether the request names a context, without reading (or refusing) the rest of the settings. */
    static boolean namesContext(HttpServerRequest request) {
        return value(request, "Engram-Context", "context") != null;
    }

    private static String value(HttpServerRequest request, String header, String param) {
        String h = request.getHeader(header);
        return h != null ? h.trim() : request.getParam(param);
    }

    private static List<Scope> scopes(HttpServerRequest request, String header, String param) {
        List<String> values = new ArrayList<>();
        String h = request.getHeader(header);
        if (h != null) {
            for (String part : h.split(",")) {
                if (!part.isBlank()) {
                    values.add(part.trim());
                }
            }
        } else {
            values.addAll(request.params().getAll(param));
        }
        return values.stream().map(Scope::new).toList();
    }
}
