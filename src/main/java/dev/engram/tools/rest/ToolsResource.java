package dev.engram.tools.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.documents.tools.DocumentTools;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.memories.rest.MemoryJson;
import dev.engram.rest.IdempotencyKeys;
import dev.engram.rest.JsonSetup;
import dev.engram.rest.Preconditions;
import dev.engram.tools.ToolDefinition;
import dev.engram.tools.ToolResult;
import dev.engram.tools.host.Offer;
import dev.engram.tools.host.ToolHost;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * The model tools of a store over REST, for a product to offer a model: their definitions in the shape its model API
 * wants, and the execution of a call the model made. The {@link ToolHost} runs both; this reads the request and
 * shapes the answer. Mistakes the model can fix come back as {@code is_error} text.
 */
@Path("/v1/stores/{store}/tools")
@Produces(MediaType.APPLICATION_JSON)
public class ToolsResource {

    @Inject
    ToolHost host;

    @Inject
    JsonSetup rest;

    @Inject
    IdempotencyKeys keys;

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
            @QueryParam("context") String context, @QueryParam("memory_tool") String memoryTool) {
        String f = format == null || format.isEmpty() ? "json-schema" : format;
        Offer offer = Offer.of(!(scopes == null || scopes.isEmpty()) || !(reads == null || reads.isEmpty()),
                bank != null, context != null, memoryTool(memoryTool));
        if (offer.entries() && (scopes == null || scopes.isEmpty())) {
            throw new Invalid("scopes-missing", "scope", "Name the tools to list: ?scope=user for the four over "
                    + "entries (the scopes they may write), ?bank=user:alice for memory_remember and memory_recall, "
                    + "?context=run-1 for tool_result_read, ?memory_tool=true for Claude's memory tool over the "
                    + "store's files; any of them together.");
        }
        List<ToolDefinition> all = host.offered(RestToolCaller.listing(storeId, scopes, reads, bank, context), offer);
        List<Map<String, Object>> shaped = all.stream().map(d -> shape(d, f)).toList();
        return new ToolsJson(f, shaped, offer.usage());
    }

    /** Whether {@code ?memory_tool=} asks for the memory tool: {@code true} or {@code false}, nothing else. */
    private static boolean memoryTool(String value) {
        if (value == null || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw new Invalid("memory-tool-flag", "memory_tool", "memory_tool is true or false, not \"" + value + "\".");
    }

    /**
     * One call: the tool, its arguments (an object, or the JSON string a model emitted), and the scopes; the bank of
     * a recall tool (its bank id or its scope object), the context of {@code tool_result_read}; the order
     * memory_search lists in ({@code name} or {@code relevance}; absent: {@code engram.tools.search-order}).
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
        ToolResult r = host.call(RestToolCaller.call(storeId, body, sessionHeader, keyHeader, keys), body.name(),
                arguments(body.arguments()));
        CallJson answer = new CallJson(r.output(), r.isError(), r.details().map(WriteRecordJson::of).orElse(null));
        return r.replayed() ? IdempotencyKeys.replayed(RestResponse.ResponseBuilder.ok(answer), true)
                : RestResponse.ok(answer);
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
        if (format.equals("anthropic") && DocumentTools.handles(d.name())) {
            t.put("type", DocumentTools.ANTHROPIC_TYPE);
            t.put("name", d.name());
            return t;
        }
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
