package dev.engram.documents.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.access.StoreAccess;
import dev.engram.access.rest.Gate;
import dev.engram.documents.Actor;
import dev.engram.documents.Documents;
import dev.engram.documents.tool.MemoryTool;
import dev.engram.entries.EntryRules;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.rest.IdempotencyKeys;
import dev.engram.rest.JsonSetup;
import dev.engram.rest.Preconditions;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * The backend of Claude's memory tool ({@code memory_20250818}) over a store's documents: a product hands each
 * {@code tool_use} of the tool here, as the model sent it, and passes the answer back as the {@code tool_result}.
 * The caller's grant decides which paths it reads and writes: a document whose first directory is a scope
 * ({@code /memories/user/...}) is that scope's, any other needs the grant on every scope.
 */
@Path("/v1/stores/{store}/memory-tool")
@Produces(MediaType.APPLICATION_JSON)
public class MemoryToolResource {

    @Inject
    Documents documents;

    @Inject
    Gate gate;

    @Inject
    JsonSetup rest;

    @Inject
    IdempotencyKeys keys;

    @PathParam("store")
    String store;

    /**
     * The tool result: {@code content} the text for the model, {@code is_error}; with {@code type} and
     * {@code tool_use_id} when a whole {@code tool_use} block was sent, so the answer is the block to send back.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ToolResultJson(String type, String toolUseId, String content, boolean isError) {
    }

    /**
     * Runs one command: the body is the tool-use input ({@code {"command": "view", "path": "/memories"}}) or the
     * whole {@code tool_use} block holding it. Every mistake the model made is an {@code is_error} result; a body
     * that is neither is refused (422). Under an {@code Idempotency-Key} the call runs at most once: its edits
     * and its answer land together, and a retry is answered the first answer, marked {@code Idempotent-Replayed}.
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<ToolResultJson> call(JsonNode body, @HeaderParam(Preconditions.SESSION) String sessionHeader,
            @HeaderParam(IdempotencyKey.HEADER) String keyHeader) {
        EntryRules.checkStoreId(store);
        String session = Preconditions.session(sessionHeader);
        if (body == null || !body.isObject()) {
            throw new Invalid("tool-input", "", "Send the memory tool's input as the model sent it, such as "
                    + "{\"command\": \"view\", \"path\": \"/memories\"}, or the whole tool_use block.");
        }
        boolean block = "tool_use".equals(body.path("type").asText(null));
        JsonNode input = block ? body.get("input") : body;
        if (block && (input == null || !input.isObject())) {
            throw new Invalid("tool-input", "input", "The tool_use block has no input object; send the block as "
                    + "the model sent it.");
        }
        if (block && !"memory".equals(body.path("name").asText(""))) {
            throw new Invalid("tool-name", "name", "This route runs the memory tool (name \"memory\"), not \""
                    + body.path("name").asText("") + "\".");
        }
        Optional<IdempotencyKey> key = keys.read(keyHeader, "POST", "/v1/stores/" + store + "/memory-tool",
                rest.mapper().convertValue(body, Object.class));
        StoreAccess access = gate.in(store);
        if (!access.reaches()) {
            throw NotFound.store(store);
        }
        if ("create".equals(input.path("command").asText(""))) {
            gate.mayCreate(store);
        }
        Map<String, Object> arguments = rest.mapper().convertValue(input, new TypeReference<>() {
        });
        Actor actor = Actor.ofCaller(gate.caller().id(), session);
        Supplier<ToolResultJson> run = () -> {
            MemoryTool.Answer answer = new MemoryTool(documents).run(store, arguments, actor, PathGrants.of(access));
            return new ToolResultJson(block ? "tool_result" : null, block ? body.path("id").asText(null) : null,
                    answer.text(), answer.isError());
        };
        if (key.isEmpty()) {
            return RestResponse.ok(run.get());
        }
        Documents.Kept kept = documents.once(store, key.get(), () -> json(run.get()));
        RestResponse.ResponseBuilder<Object> answer = RestResponse.ResponseBuilder.ok(kept.reply(),
                MediaType.APPLICATION_JSON + ";charset=UTF-8");
        @SuppressWarnings("unchecked")
        RestResponse<ToolResultJson> reply = (RestResponse<ToolResultJson>) (RestResponse<?>) IdempotencyKeys
                .replayed(answer, kept.replayed());
        return reply;
    }

    private String json(ToolResultJson result) {
        try {
            return rest.mapper().writeValueAsString(result);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tool result always serialises", e);
        }
    }
}
