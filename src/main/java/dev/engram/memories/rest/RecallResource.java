package dev.engram.memories.rest;

import dev.engram.rest.Params;
import dev.engram.access.rest.Gate;
import dev.engram.memories.EmbeddingStatus;
import dev.engram.memories.Recalls;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * How a store's recall stands: the embedding model its semantic ranking uses, how many memories have a vector of it,
 * how many wait, and the lag from a save to its vector. Reading takes a grant that reads memories.
 */
@Path("/v1/stores/{store}/recall")
public class RecallResource {

    @Inject
    Recalls recalls;

    @Inject
    Gate gate;

    @PathParam("store")
    String storeId;

    /** The lag from a save to its vector over the last ten minutes, in milliseconds (null members: none). */
    public record LagJson(Double p50, Double p99, Double max) {
    }

    /** {@code GET /v1/stores/{store}/recall}. */
    public record StatusJson(String store, String model, int dimensions, long memories, long embedded, long pending,
            LagJson lagMs) {
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public StatusJson status() {
        String store = Params.store(storeId);
        gate.checkReadsMemories(store);
        EmbeddingStatus s = recalls.in(store).embeddingStatus();
        return new StatusJson(store, s.model(), s.dimensions(), s.memories(), s.embedded(), s.pending(),
                new LagJson(s.lagP50Ms(), s.lagP99Ms(), s.lagMaxMs()));
    }
}
