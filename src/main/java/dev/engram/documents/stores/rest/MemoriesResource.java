package dev.engram.documents.stores.rest;

import dev.engram.documents.Document;
import dev.engram.documents.Documents;
import dev.engram.documents.Written;
import dev.engram.documents.stores.MemoryListing;
import dev.engram.documents.stores.MemoryStoreIds;
import dev.engram.documents.stores.PageCursor;
import dev.engram.documents.stores.View;
import dev.engram.documents.stores.rest.StoreApiJson.CreateStoreMemory;
import dev.engram.documents.stores.rest.StoreApiJson.MemoryStoreDeletion;
import dev.engram.documents.stores.rest.StoreApiJson.StoreMemoryJson;
import dev.engram.documents.stores.rest.StoreApiJson.MemoryStorePage;
import dev.engram.documents.stores.rest.StoreApiJson.MemoryPrefixJson;
import dev.engram.documents.stores.rest.StoreApiJson.UpdateStoreMemory;
import dev.engram.kernel.NotFound;
import dev.engram.rest.Preconditions;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
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
import java.util.Optional;

/**
 * A memory store's memories: its documents, each addressed by its id ({@code mem_...}, stable across renames) and
 * holding a path and content. Each change is one version (a journal record) carrying its actor; a change that
 * changes nothing writes none. Paths take the grants as {@link StoreDoor} says.
 */
@Path("/v1/memory_stores/{memory_store_id}/memories")
@Produces(MediaType.APPLICATION_JSON)
public class MemoriesResource {

    @Inject
    Documents documents;

    @Inject
    StoreDoor door;

    @Inject
    MemoryWrites writes;

    @PathParam("memory_store_id")
    String storeId;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public StoreMemoryJson create(CreateStoreMemory body, @QueryParam("view") String view,
            @HeaderParam(Preconditions.SESSION) String session) {
        View v = View.of(view, View.BASIC);
        StoreDoor.Reached s = door.open(storeId);
        CreateStoreMemory b = body == null ? new CreateStoreMemory(null, null) : body;
        String path = writes.path(b.path());
        s.checkWrites(path);
        Written w = writes.landed(s, () -> documents.create(s.store(), path, b.content() == null ? ""
                : b.content(), door.actor(session)));
        return StoreMemoryJson.of(s.store(), w.document(), v.full());
    }

    @GET
    public MemoryStorePage list(@QueryParam("path_prefix") String pathPrefix, @QueryParam("depth") String depth,
            @QueryParam("view") String view, @QueryParam("limit") String limit, @QueryParam("page") String page) {
        View v = View.of(view, View.BASIC);
        int size = v.pageSize(QueryValues.integer(limit, "limit"));
        String prefix = MemoryListing.prefix(pathPrefix);
        int levels = MemoryListing.depth(QueryValues.integer(depth, "depth"));
        StoreDoor.Reached s = door.open(storeId);
        MemoryListing listing = new MemoryListing(prefix, levels, s::reads);
        MemoryListing.Page p = listing.page((after, n) -> documents.under(s.store(), prefix, after, n),
                PageCursor.position(page, 'm'), size);
        List<Object> data = new ArrayList<>();
        for (MemoryListing.Item item : p.items()) {
            if (item.isPrefix()) {
                data.add(MemoryPrefixJson.of(item.prefix()));
            } else if (v.full()) {
                documents.byId(s.store(), item.memory().id())
                        .ifPresent(d -> data.add(StoreMemoryJson.of(s.store(), d, true)));
            } else {
                data.add(StoreMemoryJson.of(s.store(), item.memory()));
            }
        }
        return new MemoryStorePage(data, p.next() == null ? null : PageCursor.of('m', p.next()));
    }

    @GET
    @Path("{memory_id}")
    public StoreMemoryJson retrieve(@PathParam("memory_id") String id, @QueryParam("view") String view) {
        View v = View.of(view, View.FULL);
        StoreDoor.Reached s = door.open(storeId);
        Document d = live(s, id);
        s.checkReads(d.path());
        return StoreMemoryJson.of(s.store(), d, v.full());
    }

    /**
     * Moves the memory and sets its content (each when sent), if its content is the precondition's; a request the
     * memory already matches is answered as it is, whatever its precondition, and writes nothing.
     */
    @POST
    @Path("{memory_id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public StoreMemoryJson update(@PathParam("memory_id") String id, UpdateStoreMemory body, @QueryParam("view") String view,
            @HeaderParam(Preconditions.SESSION) String session) {
        View v = View.of(view, View.BASIC);
        StoreDoor.Reached s = door.open(storeId);
        UpdateStoreMemory b = body == null ? new UpdateStoreMemory(null, null, null) : body;
        Optional<String> path = Optional.ofNullable(b.path()).map(writes::path);
        Optional<String> expect = writes.expected(b.precondition());
        Document d = live(s, id);
        s.checkWrites(d.path());
        path.ifPresent(s::checkWrites);
        if (MemoryWrites.matches(d, path, Optional.ofNullable(b.content()))) {
            return StoreMemoryJson.of(s.store(), d, v.full());
        }
        Written w = writes.landed(s, () -> documents.update(s.store(), id, path, Optional.ofNullable(b.content()),
                expect, door.actor(session)));
        return StoreMemoryJson.of(s.store(), w.document(), v.full());
    }

    @DELETE
    @Path("{memory_id}")
    public MemoryStoreDeletion delete(@PathParam("memory_id") String id,
            @QueryParam("expected_content_sha256") String expected,
            @HeaderParam(Preconditions.SESSION) String session) {
        StoreDoor.Reached s = door.open(storeId);
        Document d = live(s, id);
        s.checkWrites(d.path());
        documents.delete(s.store(), id, Optional.ofNullable(expected), door.actor(session));
        return new MemoryStoreDeletion("memory_deleted", id);
    }

    private Document live(StoreDoor.Reached s, String id) {
        return (MemoryStoreIds.isMemory(id) ? documents.byId(s.store(), id) : Optional.<Document>empty())
                .orElseThrow(() -> NotFound.document(QueryValues.shown(id)));
    }
}
