package dev.engram.tools.rest;

import dev.engram.entries.SearchOrder;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import dev.engram.memories.Bank;
import dev.engram.rest.IdempotencyKeys;
import dev.engram.rest.Params;
import dev.engram.rest.Preconditions;
import dev.engram.tools.host.ToolCaller;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The caller of the REST tools API, read lazily from the request: the store in the path, the scopes, bank and context
 * of the query (a listing) or of the body (a call), the {@code Engram-Session} and {@code Idempotency-Key} headers.
 * Each value is checked when the host asks for it, so a call is refused only on what its tool uses.
 */
final class RestToolCaller implements ToolCaller {

    private final String storeId;
    private final List<String> scopes;
    private final List<String> readScopes;
    private final String sessionHeader;
    private final String searchOrder;
    private final Supplier<Optional<Bank>> bank;
    private final String context;
    private final Call call;

    /** What a call adds to the caller: its body (for the key's request), the key header, and the keys. */
    private record Call(ToolsResource.CallBody body, String keyHeader, IdempotencyKeys keys) {
    }

    private RestToolCaller(String storeId, List<String> scopes, List<String> readScopes, String sessionHeader,
            String searchOrder, Supplier<Optional<Bank>> bank, String context, Call call) {
        this.storeId = storeId;
        this.scopes = scopes;
        this.readScopes = readScopes;
        this.sessionHeader = sessionHeader;
        this.searchOrder = searchOrder;
        this.bank = bank;
        this.context = context;
        this.call = call;
    }

    /** The caller of a listing: {@code ?scope=}, {@code ?read_scope=}, {@code ?bank=}, {@code ?context=}. */
    static RestToolCaller listing(String storeId, List<String> scopes, List<String> reads, String bank,
            String context) {
        return new RestToolCaller(storeId, scopes, reads, null, null,
                () -> bank == null ? Optional.empty() : Optional.of(Bank.parse(bank)), context, null);
    }

    /** The caller of a call, from its body and headers. */
    static RestToolCaller call(String storeId, ToolsResource.CallBody body, String sessionHeader, String keyHeader,
            IdempotencyKeys keys) {
        Supplier<Optional<Bank>> bank = () -> body.bank() == null ? Optional.empty()
                : Optional.of(body.bank().toBank());
        return new RestToolCaller(storeId, body.scopes(), body.readScopes(), sessionHeader, body.searchOrder(), bank,
                body.context(), new Call(body, keyHeader, keys));
    }

    @Override
    public String store() {
        return Params.store(storeId);
    }

    @Override
    public List<Scope> scopes() {
        return Params.scopes(scopes);
    }

    @Override
    public List<Scope> readScopes() {
        return Params.scopes(readScopes);
    }

    @Override
    public String session() {
        return Preconditions.session(sessionHeader);
    }

    @Override
    public Optional<SearchOrder> searchOrder() {
        return searchOrder == null ? Optional.empty() : Optional.of(SearchOrder.parse(searchOrder, "search_order"));
    }

    @Override
    public Optional<Bank> bank() {
        return bank.get();
    }

    @Override
    public Optional<String> context() {
        return Optional.ofNullable(context);
    }

    @Override
    public boolean sentKey() {
        return call != null && call.keyHeader() != null;
    }

    /** The call's key, if one was sent; the request it identifies is the tool, its arguments, the scopes, the bank. */
    @Override
    public Optional<IdempotencyKey> key(String tool, Optional<Map<String, Object>> arguments) {
        if (call == null) {
            return Optional.empty();
        }
        ToolsResource.CallBody body = call.body();
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("name", body.name());
        request.put("arguments", arguments.isPresent() ? arguments.get() : String.valueOf(body.arguments()));
        request.put("scopes", body.scopes());
        request.put("read_scopes", body.readScopes());
        if (body.bank() != null) {
            request.put("bank", body.bank().toBank().bankId());
        }
        return call.keys().read(call.keyHeader(), "POST", "/v1/stores/" + storeId + "/tools/call", request);
    }

    @Override
    public Invalid noBank(String tool) {
        return new Invalid("bank-missing", "bank", tool + " works in a bank: send \"bank\": \"user:alice\" "
                + "(the bank of this conversation's user or agent) with the call.");
    }

    @Override
    public Invalid noContext(String tool) {
        return new Invalid("context-missing", "context", tool + " reads a context's cached tool results: "
                + "send \"context\": \"run-1\" (the context whose prompt the model was shown) with the call.");
    }
}
