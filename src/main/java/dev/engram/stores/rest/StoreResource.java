package dev.engram.stores.rest;

import dev.engram.rest.Bodies;
import dev.engram.rest.Params;
import dev.engram.entries.rest.Replies;
import dev.engram.access.rest.Gate;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.entries.StoreInfo;
import dev.engram.entries.Stores;
import dev.engram.ops.EngramConfig;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

/** A store: create or configure it, and see its seq and counts. */
@Path("/v1/stores/{store}")
@Produces(MediaType.APPLICATION_JSON)
public class StoreResource {

    @Inject
    Stores stores;

    @Inject
    EngramConfig config;

    @Inject
    Gate gate;

    /** Creates the store, or sets its content bound; {@code max_entry_bytes} defaults to the configured one. */
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<Replies.StoreJson> configure(@PathParam("store") String store, Bodies.PutStore body) {
        gate.in(Params.store(store)).checkAdminister();
        int limit = body == null || body.maxEntryBytes() == null ? config.defaultMaxEntryBytes() : body.maxEntryBytes();
        if (limit < 1 || limit > config.maxEntryBytesCeiling()) {
            throw new Invalid("number-range", "max_entry_bytes", "max_entry_bytes must be from 1 to "
                    + config.maxEntryBytesCeiling() + ", not " + limit + ".");
        }
        gate.mayCreate(store);
        StoreInfo info = stores.configure(Params.store(store), limit);
        return RestResponse.ResponseBuilder.create(info.created() ? RestResponse.Status.CREATED : RestResponse.Status.OK,
                Replies.StoreJson.of(info)).build();
    }

    @GET
    public Replies.StoreJson get(@PathParam("store") String store) {
        gate.in(Params.store(store)).checkReadsEvery();
        return Replies.StoreJson.of(stores.info(Params.store(store)).orElseThrow(() -> NotFound.store(store)));
    }
}
