package dev.engram.stores.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.engram.access.Caller;
import dev.engram.access.Grant;
import dev.engram.access.rest.Gate;
import dev.engram.entries.StoreSummary;
import dev.engram.entries.Stores;
import dev.engram.ops.EngramConfig;
import dev.engram.rest.Params;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;

/** The stores the caller's grants cover, by ID, a page at a time, with what each holds counted. */
@Path("/v1/stores")
@Produces(MediaType.APPLICATION_JSON)
public class StoreListResource {

    @Inject
    Stores stores;

    @Inject
    Gate gate;

    @Inject
    EngramConfig config;

    /** A store as the listing shows it. */
    public record StoreRowJson(String id, long seq, long entries, long entryBytes, long memories, long documents,
            long contexts, int maxEntryBytes, Instant createdAt) {

        static StoreRowJson of(StoreSummary s) {
            return new StoreRowJson(s.id(), s.records(), s.entries(), s.entryBytes(), s.memories(), s.documents(),
                    s.contexts(), s.maxEntryBytes(), s.createdAt());
        }
    }

    /** A page of stores: {@code next} is the {@code after} of the next page, given when {@code more}. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record StoreListJson(List<StoreRowJson> stores, String next, boolean more) {
    }

    /**
     * The stores after {@code after} (by ID) that the caller reaches, at most {@code limit}: every store for the
     * operator, those its grants name for a key or a token.
     */
    @GET
    public StoreListJson list(@QueryParam("after") String after, @QueryParam("limit") String limit) {
        Caller caller = gate.caller();
        int n = (int) Params.number(limit, "limit", 1, config.list().maxLimit(), config.list().defaultLimit());
        String from = after == null || after.isEmpty() ? "" : Params.store(after);
        List<String> patterns = caller.isOperator() ? List.of("*")
                : caller.grants().stream().map(Grant::stores).distinct().toList();
        List<StoreRowJson> page = stores.page(patterns, from, n + 1).stream()
                .filter(s -> caller.in(s.id()).reaches()).map(StoreRowJson::of).toList();
        boolean more = page.size() > n;
        List<StoreRowJson> shown = more ? page.subList(0, n) : page;
        return new StoreListJson(shown, more ? shown.get(shown.size() - 1).id() : null, more);
    }
}
