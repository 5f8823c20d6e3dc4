package dev.engram.entries.rest;

import dev.engram.rest.Params;
import dev.engram.access.rest.Gate;
import dev.engram.entries.LostUpdates;
import dev.engram.kernel.NotFound;
import dev.engram.entries.Stores;
import dev.engram.ops.EngramConfig;
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
    EngramConfig config;

    @Inject
    Gate gate;

    /**
     * The lost updates of the window after {@code after}, a page at a time: those after {@code from} (the
     * {@code next} of the previous page), at most {@code limit}.
     */
    @GET
    public Replies.LostUpdates lostUpdates(@PathParam("store") String store, @QueryParam("after") String after,
            @QueryParam("from") String from, @QueryParam("limit") String limit) {
        gate.in(Params.store(store)).checkReadsEvery();
        long window = Params.number(after, "after", 0, Long.MAX_VALUE, 0);
        long start = Params.number(from, "from", window, Long.MAX_VALUE, window);
        int n = (int) Params.number(limit, "limit", 1, config.list().maxLimit(), config.list().defaultLimit());
        LostUpdates.Page page = LostUpdates.page(stores.store(Params.store(store)), window, start, n,
                config.limits().pageBytes());
        if (page.lost().isEmpty() && !stores.exists(store)) {
            throw NotFound.store(store);
        }
        return new Replies.LostUpdates(page.lost().stream().map(Replies.LostUpdateJson::of).toList(),
                page.next(), page.more());
    }
}
