package dev.engram.entries.rest;

import dev.engram.rest.Params;
import dev.engram.access.rest.Gate;
import dev.engram.entries.Entry;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Paged;
import dev.engram.kernel.Scope;
import dev.engram.entries.SearchOrder;
import dev.engram.entries.Stores;
import dev.engram.ops.EngramConfig;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * Search: every word of {@code q} in an entry's name, meta values or content, ignoring case; by scope and name, or
 * best first ({@code order=relevance}); a page from {@code offset}.
 */
@Path("/v1/stores/{store}/search")
@Produces(MediaType.APPLICATION_JSON)
public class SearchResource {

    @Inject
    Stores stores;

    @Inject
    EngramConfig config;

    @Inject
    Gate gate;

    @GET
    public Replies.Entries search(@PathParam("store") String store, @QueryParam("q") String q,
            @QueryParam("scope") List<String> scopes, @QueryParam("limit") String limit,
            @QueryParam("offset") String offset, @QueryParam("order") String order) {
        int n = (int) Params.number(limit, "limit", 1, config.search().maxLimit(), config.search().defaultLimit());
        int from = (int) Params.number(offset, "offset", 0, Integer.MAX_VALUE, 0);
        SearchOrder by = Params.searchOrder(order);
        List<Scope> readable = gate.in(Params.store(store)).narrowReads(Params.scopes(scopes));
        Paged<Entry> found = stores.store(store).searchPage(readable, q == null ? "" : q, by, from, n,
                config.limits().pageBytes());
        if (found.items().isEmpty() && !stores.exists(store)) {
            throw NotFound.store(store);
        }
        return new Replies.Entries(found.items().stream().map(EntryJson::of).toList(),
                found.more() && found.items().size() < n, found.more());
    }
}
