package dev.engram.tools.rest;

import dev.engram.rest.IdempotencyKeys;
import dev.engram.rest.JsonSetup;
import dev.engram.memories.rest.MemoryJson;
import dev.engram.rest.Params;
import dev.engram.rest.Preconditions;
import dev.engram.contexts.app.ToolResultReads;
import dev.engram.problems.WriteOutcomes;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.access.rest.Gate;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.entries.Replay;
import dev.engram.kernel.Scope;
import dev.engram.entries.SearchOrder;
import dev.engram.entries.Store;
import dev.engram.entries.Stores;
import dev.engram.memories.Bank;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.Recalls;
import dev.engram.entries.render.Manifest;
import dev.engram.entries.render.SessionManifests;
import dev.engram.contexts.tools.ContextTools;
import dev.engram.entries.tools.EntryTools;
import dev.engram.memories.Saved;
import dev.engram.memories.tools.RecallTools;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolOptions;
import dev.engram.tools.ToolResult;
import dev.engram.tools.WriteRecord;
import dev.engram.tools.Usage;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * The four memory tools of a store for a product to offer a model: their definitions in the shape its model API
 * wants, and the execution of a call the model made. Mistakes the model can fix come back as {@code is_error} text.
 */
@Path("/v1/stores/{store}/tools")
@Produces(MediaType.APPLICATION_JSON)
public class ToolsResource {

    @Inject
    Stores stores;

    @Inject
    SessionManifests sessions;

    @Inject
    WriteOutcomes outcomes;

    @Inject
    JsonSetup rest;

    @Inject
    ToolOptions options;

    @Inject
    Gate gate;

    @Inject
    Recalls recalls;

    @Inject
    IdempotencyKeys keys;

    @Inject
    ToolResultReads toolResults;

    @PathParam("store")
    String storeId;

    /** The tools and the paragraph that tells the model how to use them. */
    public record ToolsJson(String format, List<Map<String, Object>> tools, String usage) {
    }

    /**
     * The tools asked for: the four over entries for {@code scope} (and {@code read_scope}), the two recall tools for
     * {@code bank}, tool_result_read for {@code context}; a request that names a bank or a context and no scope gets
     * those alone. Naming none of the three is refused ({@code scopes-missing}). {@code usage} covers what is listed.
     */
    @GET
    public ToolsJson definitions(@QueryParam("scope") List<String> scopes, @QueryParam("read_scope") List<String> reads,
            @QueryParam("format") String format, @QueryParam("bank") String bank,
            @QueryParam("context") String context) {
        String f = format == null || format.isEmpty() ? "json-schema" : format;
        boolean entries = !(scopes == null || scopes.isEmpty()) || !(reads == null || reads.isEmpty())
                || (bank == null && context == null);
        if (entries && (scopes == null || scopes.isEmpty())) {
            throw new Invalid("scopes-missing", "scope", "Name the tools to list: ?scope=user for the four over "
                    + "entries (the scopes they may write), ?bank=user:alice for memory_remember and memory_recall, "
                    + "?context=run-1 for tool_result_read; any of them together.");
        }
        List<ToolDefinition> all = new ArrayList<>();
        if (entries) {
            all.addAll(tools(scopes, reads, Optional.empty(), Optional::empty).definitions());
        }
        if (bank != null) {
            Bank.parse(bank);
            all.addAll(RecallTools.definitions());
        }
        if (context != null) {
            MemoryRules.checkId(context, "context");
            all.addAll(ContextTools.definitions());
        }
        if (bank != null || context != null) {
            gate.checkReadsMemories(Params.store(storeId));
        }
        List<Map<String, Object>> shaped = all.stream().map(d -> shape(d, f)).toList();
        return new ToolsJson(f, shaped, Usage.text(entries, bank != null, context != null));
    }

    /**
     * One call: the tool, its arguments (an object, or the JSON string a model emitted), and the scopes; the bank of
     * a recall tool (its bank id or its scope object), the context of {@code tool_result_read}; the order memory_search lists in ({@code name} or
     * {@code relevance}; absent: {@code engram.tools.search-order}).
     */
    public record CallBody(String name, JsonNode arguments, List<String> scopes, List<String> readScopes,
            MemoryJson.BankJson bank, String context, String searchOrder) {
    }

    /** The text for the model, whether it is an error, and the journal record of a write. */
    public record CallJson(String output, boolean isError, WriteRecordJson details) {
    }

    /**
     * Runs the call; under an {@code Idempotency-Key}, a write tool's call whose key wrote before is answered with
     * the first call's output and record, marked {@code Idempotent-Replayed}, and writes nothing.
     */
    @POST
    @Path("call")
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<CallJson> call(CallBody body, @HeaderParam(Preconditions.SESSION) String sessionHeader,
            @HeaderParam(IdempotencyKey.HEADER) String keyHeader) {
        if (body == null || body.name() == null) {
            throw new Invalid("tool-missing", "name", "Send {\"name\": \"memory_save\", \"arguments\": {...}, "
                    + "\"scopes\": [\"user\"]}: the tool the model called, its arguments and the scopes it may use.");
        }
        if (RecallTools.handles(body.name())) {
            return recall(body, keyHeader);
        }
        if (ContextTools.handles(body.name())) {
            return readToolResult(body, keyHeader);
        }
        String session = Preconditions.session(sessionHeader);
        Supplier<Optional<Manifest>> shown = () -> session.isEmpty() ? Optional.empty()
                : sessions.inForce(storeId, session);
        Optional<SearchOrder> order = body.searchOrder() == null ? Optional.empty()
                : Optional.of(SearchOrder.parse(body.searchOrder(), "search_order"));
        EntryTools tools = tools(body.scopes(), body.readScopes(), order, shown);
        Optional<Map<String, Object>> args = arguments(body.arguments());
        Optional<IdempotencyKey> key = key(keyHeader, body, args);
        if (EntryTools.SAVE.equals(body.name())) {
            gate.mayCreate(storeId);
        }
        ToolResult r;
        if (args.isEmpty()) {
            r = new ToolResult("The arguments are not a JSON object; send the tool's arguments as an object, "
                    + "such as {\"name\": \"...\", \"content\": \"...\"}.", true, Optional.empty(),
                    Optional.of("invalid"));
        } else {
            EntryTools.Called called = tools.call(body.name(), args.get(), session, key);
            if (called.replayed().isPresent()) {
                return replay(body.name(), called.replayed().get().first());
            }
            r = called.result();
        }
        r.details().ifPresent(w -> outcomes.landed(w.change()));
        r.refusal().ifPresent(kind -> outcomes.refusedTool(body.name(), kind));
        return RestResponse.ok(new CallJson(r.output(), r.isError(),
                r.details().map(WriteRecordJson::of).orElse(null)));
    }

    /** A call of memory_remember or memory_recall, in the bank the call names. */
    private RestResponse<CallJson> recall(CallBody body, String keyHeader) {
        if (body.bank() == null) {
            throw new Invalid("bank-missing", "bank", body.name() + " works in a bank: send \"bank\": \"user:alice\" "
                    + "(the bank of this conversation's user or agent) with the call.");
        }
        Bank bank = body.bank().toBank();
        if (keyHeader != null && !RecallTools.writes(body.name())) {
            throw new Invalid("idempotency-key-not-taken", IdempotencyKey.HEADER, body.name() + " only reads, so it "
                    + "takes no Idempotency-Key; send the call without it.");
        }
        if (RecallTools.writes(body.name())) {
            gate.checkChangesMemories(Params.store(storeId));
        } else {
            gate.checkReadsMemories(Params.store(storeId));
        }
        Optional<Map<String, Object>> args = arguments(body.arguments());
        Optional<IdempotencyKey> key = key(keyHeader, body, args);
        Saved<ToolResult> call = args.isEmpty() ? new Saved.Landed<>(new ToolResult("The arguments are not a JSON "
                + "object; send them as an object, such as {\"query\": \"...\"}.", true, Optional.empty(),
                Optional.of("invalid"))) : new RecallTools(recalls.in(Params.store(storeId)), bank).call(body.name(),
                        args.get(), key);
        if (call instanceof Saved.Replayed<ToolResult> replayed) {
            return IdempotencyKeys.replayed(RestResponse.ResponseBuilder.ok(new CallJson(replayed.reply(), false,
                    null)), true);
        }
        ToolResult r = call.value();
        r.refusal().ifPresent(kind -> outcomes.refusedTool(body.name(), kind));
        return RestResponse.ok(new CallJson(r.output(), r.isError(), null));
    }

    /** A call of tool_result_read in the context the call names, read as the context's GET reads. */
    private RestResponse<CallJson> readToolResult(CallBody body, String keyHeader) {
        if (body.context() == null) {
            throw new Invalid("context-missing", "context", body.name() + " reads a context's cached tool results: "
                    + "send \"context\": \"run-1\" (the context whose prompt the model was shown) with the call.");
        }
        MemoryRules.checkId(body.context(), "context");
        if (keyHeader != null) {
            throw new Invalid("idempotency-key-not-taken", IdempotencyKey.HEADER, body.name() + " only reads, so it "
                    + "takes no Idempotency-Key; send the call without it.");
        }
        String store = Params.store(storeId);
        gate.checkReadsMemories(store);
        Optional<Map<String, Object>> args = arguments(body.arguments());
        ToolResult r = args.isEmpty() ? new ToolResult("The arguments are not a JSON object; send them as an object, "
                + "such as {\"hash\": \"3f2a\", \"start_line\": 1}.", true, Optional.empty(), Optional.of("invalid"))
                : toolResults.call(store, body.context(), args.get());
        return RestResponse.ok(new CallJson(r.output(), r.isError(), null));
    }

    /**
     * The call's key, if one was sent; the request it identifies is the tool, its arguments, the scopes and the bank.
     */
    private Optional<IdempotencyKey> key(String header, CallBody body, Optional<Map<String, Object>> args) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("name", body.name());
        request.put("arguments", args.isPresent() ? args.get() : String.valueOf(body.arguments()));
        request.put("scopes", body.scopes());
        request.put("read_scopes", body.readScopes());
        if (body.bank() != null) {
            request.put("bank", body.bank().toBank().bankId());
        }
        return keys.read(header, "POST", "/v1/stores/" + storeId + "/tools/call", request);
    }

    /** The first call's answer to a call sent again under its key: its text (unless erased since) and record. */
    private static RestResponse<CallJson> replay(String tool, Replay first) {
        String output = first.reply().isEmpty() ? "This call was made before, and what it wrote has since been "
                + "erased." : first.reply();
        CallJson again = new CallJson(output, false, WriteRecordJson.of(new WriteRecord(tool, first.change())));
        return IdempotencyKeys.replayed(RestResponse.ResponseBuilder.ok(again), true);
    }

    private EntryTools tools(List<String> scopes, List<String> reads, Optional<SearchOrder> order,
            Supplier<Optional<Manifest>> shown) {
        Store store = stores.store(Params.store(storeId));
        List<Scope> writable = Params.scopes(scopes);
        List<Scope> readOnly = Params.scopes(reads);
        gate.in(storeId).checkTools(writable, readOnly);
        return new EntryTools(store, writable, readOnly, options.searchingIn(order), shown);
    }

    /** The call's arguments as a map: an object as it is, a string parsed as the JSON a model emitted. */
    private Optional<Map<String, Object>> arguments(JsonNode node) {
        if (node == null || node.isNull()) {
            return Optional.of(Map.of());
        }
        JsonNode object = node;
        if (node.isTextual()) {
            try {
                object = rest.mapper().readTree(node.asText());
            } catch (JsonProcessingException e) {
                return Optional.empty();
            }
        }
        if (object == null || !object.isObject()) {
            return Optional.empty();
        }
        return Optional.of(rest.mapper().convertValue(object, new TypeReference<Map<String, Object>>() {
        }));
    }

    /** A definition in the shape a model API takes. */
    static Map<String, Object> shape(ToolDefinition d, String format) {
        Map<String, Object> t = new LinkedHashMap<>();
        switch (format) {
            case "json-schema" -> {
                t.put("name", d.name());
                t.put("title", d.title());
                t.put("description", d.description());
                t.put("input_schema", d.inputSchema());
                Map<String, Object> a = new LinkedHashMap<>();
                a.put("read_only_hint", d.annotations().readOnly());
                a.put("destructive_hint", d.annotations().destructive());
                a.put("idempotent_hint", d.annotations().idempotent());
                a.put("open_world_hint", d.annotations().openWorld());
                t.put("annotations", a);
            }
            case "openai-chat" -> {
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("name", d.name());
                f.put("description", d.description());
                f.put("parameters", d.inputSchema());
                t.put("type", "function");
                t.put("function", f);
            }
            case "openai-responses" -> {
                t.put("type", "function");
                t.put("name", d.name());
                t.put("description", d.description());
                t.put("parameters", d.inputSchema());
                t.put("strict", false);
            }
            case "anthropic" -> {
                t.put("name", d.name());
                t.put("description", d.description());
                t.put("input_schema", d.inputSchema());
            }
            default -> throw new Invalid("tool-format", "format", "format must be json-schema, openai-chat, "
                    + "openai-responses or anthropic, not \"" + format + "\".");
        }
        return t;
    }
}
