package dev.engram.api;

import dev.engram.api.access.Gate;
import dev.engram.memory.LostUpdates;
import dev.engram.memory.NotFound;
import dev.engram.memory.Stores;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** The audit: every write after the cursor that was built on a state another write had already replaced. */
@Path("/v1/stores/{store}/lost-updates")
@Produces(MediaType.APPLICATION_JSON)
public class LostUpdatesResource {

    @Inject
    Stores stores;

    @Inject
    Gate gate;

    @GET
    public Replies.LostUpdates lostUpdates(@PathParam("store") String store, @QueryParam("after") String after) {
        gate.in(Params.store(store)).checkReadsEvery();
        long cursor = Params.number(after, "after", 0, Long.MAX_VALUE, 0);
        var lost = LostUpdates.find(stores.store(Params.store(store)), cursor);
        if (lost.isEmpty() && !stores.exists(store)) {
            throw NotFound.store(store);
        }
        return new Replies.LostUpdates(lost.stream().map(Replies.LostUpdateJson::of).toList());
    }
}
