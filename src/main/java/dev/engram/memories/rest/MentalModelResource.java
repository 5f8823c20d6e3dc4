package dev.engram.memories.rest;

import dev.engram.rest.Params;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.engram.access.rest.Gate;
import dev.engram.kernel.Paged;
import dev.engram.kernel.Utf8;
import dev.engram.ops.EngramConfig;
import dev.engram.kernel.Invalid;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.MentalModel;
import dev.engram.memories.Recall;
import dev.engram.memories.Recalls;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import org.jboss.resteasy.reactive.RestResponse;

/** A store's mental models: named summaries saved whole under ids the caller chooses. */
@Path("/v1/stores/{store}/mental-models")
@Produces(MediaType.APPLICATION_JSON)
public class MentalModelResource {

    @Inject
    Recalls recalls;

    @Inject
    Gate gate;

    @Inject
    EngramConfig config;

    @PathParam("store")
    String storeId;

    /** A mental model. */
    public record ModelJson(String id, String name, String description, String content, List<String> tags,
            Instant updatedAt) {

        static ModelJson of(MentalModel m) {
            return new ModelJson(m.id(), m.name(), m.description(), m.content(), m.tags(), m.updatedAt());
        }
    }

    /** {@code PUT .../mental-models/{id}}. */
    public record ModelBody(String name, String description, String content, List<String> tags) {
    }

    /**
     * The list, most recently updated first; {@code truncated} (only when true) when it ended at
     * {@code engram.limits.page-bytes} of content.
     */
    public record ModelsJson(List<ModelJson> mentalModels,
            @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean truncated) {
    }

    @GET
    public ModelsJson list() {
        gate.checkReadsMemories(Params.store(storeId));
        List<MentalModel> all = recall().models();
        Paged<MentalModel> page = Paged.of(all, all.size(), config.limits().pageBytes(),
                m -> Utf8.length(m.content()));
        return new ModelsJson(page.items().stream().map(ModelJson::of).toList(), page.more());
    }

    @GET
    @Path("{id}")
    public ModelJson get(@PathParam("id") String id) {
        gate.checkReadsMemories(Params.store(storeId));
        MemoryRules.checkId(id, "id");
        return ModelJson.of(recall().model(id));
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public ModelJson put(@PathParam("id") String id, ModelBody body) {
        writable();
        MemoryRules.checkId(id, "id");
        if (body == null) {
            throw new Invalid("body-missing", "", "Send {\"name\": \"...\", \"content\": \"...\", \"tags\": [...]}.");
        }
        return ModelJson.of(recall().saveModel(new MentalModel(id, body.name(), body.description(), body.content(),
                body.tags(), null)));
    }

    @DELETE
    @Path("{id}")
    public RestResponse<Void> delete(@PathParam("id") String id) {
        writable();
        MemoryRules.checkId(id, "id");
        recall().deleteModel(id);
        return RestResponse.noContent();
    }

    private void writable() {
        gate.checkChangesMemories(Params.store(storeId));
    }

    private Recall recall() {
        return recalls.in(Params.store(storeId));
    }
}
