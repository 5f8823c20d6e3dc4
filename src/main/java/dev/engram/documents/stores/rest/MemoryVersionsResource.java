package dev.engram.documents.stores.rest;

import dev.engram.documents.Written.Operation;
import dev.engram.documents.stores.MemoryStoreIds;
import dev.engram.documents.stores.MemoryStores;
import dev.engram.documents.stores.MemoryVersion;
import dev.engram.documents.stores.PageCursor;
import dev.engram.documents.stores.VersionQuery;
import dev.engram.documents.stores.View;
import dev.engram.documents.stores.rest.StoreApiJson.MemoryStorePage;
import dev.engram.documents.stores.rest.StoreApiJson.MemoryVersionJson;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.rest.Params;
import dev.engram.rest.Preconditions;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A memory store's versions: the journal's records of its documents' changes, newest first, each with who made it.
 * They are the store's journal, so reading them takes read on every scope, as the journal does; redacting one
 * erases its content from the journal, as an entry's erasure does, and takes admin.
 */
@Path("/v1/memory_stores/{memory_store_id}/memory_versions")
@Produces(MediaType.APPLICATION_JSON)
public class MemoryVersionsResource {

    @Inject
    MemoryStores stores;

    @Inject
    StoreDoor door;

    @PathParam("memory_store_id")
    String storeId;

    @GET
    public MemoryStorePage list(@QueryParam("memory_id") String memoryId, @QueryParam("operation") String operation,
            @QueryParam("session_id") String sessionId, @QueryParam("api_key_id") String apiKeyId,
            @QueryParam("service_account_id") String serviceAccountId, @QueryParam("created_at[gte]") String from,
            @QueryParam("created_at[lte]") String to, @QueryParam("view") String view,
            @QueryParam("limit") String limit, @QueryParam("page") String page) {
        View v = View.of(view, View.BASIC);
        int size = v.pageSize(QueryValues.integer(limit, "limit"));
        VersionQuery query = new VersionQuery(QueryValues.text(memoryId, "memory_id"), operation(operation),
                QueryValues.text(sessionId, "session_id"), QueryValues.text(apiKeyId, "api_key_id"),
                QueryValues.text(serviceAccountId, "service_account_id"), QueryValues.time(from, "created_at[gte]"),
                QueryValues.time(to, "created_at[lte]"));
        String position = PageCursor.position(page, 'v');
        long before = position == null ? 0 : Params.number(position, "page", 1, Long.MAX_VALUE, 0);
        StoreDoor.Reached s = door.open(storeId);
        s.access().checkReadsEvery();
        List<MemoryVersion> found = stores.versions(s.store(), query, before, size + 1);
        List<Object> data = new ArrayList<>();
        for (MemoryVersion m : found.subList(0, Math.min(size, found.size()))) {
            data.add(MemoryVersionJson.of(s.store(), m, v.full()));
        }
        return new MemoryStorePage(data, found.size() > size ? PageCursor.of('v', Long.toString(found.get(size - 1).seq()))
                : null);
    }

    @GET
    @Path("{memory_version_id}")
    public MemoryVersionJson retrieve(@PathParam("memory_version_id") String id, @QueryParam("view") String view) {
        View v = View.of(view, View.FULL);
        StoreDoor.Reached s = door.open(storeId);
        s.access().checkReadsEvery();
        long seq = MemoryStoreIds.version(id);
        return MemoryVersionJson.of(s.store(), stores.version(s.store(), seq)
                .orElseThrow(() -> NotFound.memoryVersion(QueryValues.shown(id))), v.full());
    }

    @POST
    @Path("{memory_version_id}/redact")
    public MemoryVersionJson redact(@PathParam("memory_version_id") String id,
            @HeaderParam(Preconditions.SESSION) String session) {
        StoreDoor.Reached s = door.open(storeId);
        s.access().checkAdminister();
        long seq = MemoryStoreIds.version(id);
        return MemoryVersionJson.of(s.store(), stores.redact(s.store(), seq, door.actor(session)), true);
    }

    private static Operation operation(String value) {
        if (value == null) {
            return null;
        }
        for (Operation o : Operation.values()) {
            if (o.json().equals(value)) {
                return o;
            }
        }
        throw new Invalid("operation", "operation", "The operation is created, modified or deleted, not \""
                + QueryValues.shown(value.toLowerCase(Locale.ROOT)) + "\".");
    }
}
