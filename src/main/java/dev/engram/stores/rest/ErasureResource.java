package dev.engram.stores.rest;

import dev.engram.rest.Bodies;
import dev.engram.entries.rest.ChangeJson;
import dev.engram.rest.JsonSetup;
import dev.engram.rest.Params;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.engram.access.rest.Gate;
import dev.engram.entries.Erasure;
import dev.engram.entries.Stores;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Erasure, the answer to a deletion request: the entry's content leaves the live entries and every journal record,
 * and an erasure record says who erased it, when and why (docs/adr/0005-erasure-rewrites-the-journal.md). For the
 * operator or an {@code admin} of the store only.
 */
@Path("/v1/stores/{store}/scopes/{scope}/entries/{name}/erase")
@Produces(MediaType.APPLICATION_JSON)
public class ErasureResource {

    @Inject
    Stores stores;

    @Inject
    Gate gate;

    @Inject
    JsonSetup rest;

    /**
     * Erases the entry and answers the erasure record. The body {@code {"reason": "..."}} is optional: an empty POST
     * (still with {@code Content-Type: application/json}, as every write, which BrowserEdges checks before;
     * the document says so too) erases with no reason.
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public ChangeJson erase(@PathParam("store") String store, @PathParam("scope") String scope,
            @PathParam("name") String name, String body) throws JsonProcessingException {
        String id = Params.store(store);
        gate.in(id).checkAdminister();
        Bodies.Erase request = body == null || body.isBlank() ? null
                : rest.mapper().readValue(body, Bodies.Erase.class);
        Erasure erasure = new Erasure(gate.caller().id(), request == null ? "" : request.reason());
        return ChangeJson.of(stores.store(id).erase(Params.scope(scope), Params.name(name), erasure));
    }
}
