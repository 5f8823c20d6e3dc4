package dev.engram.documents.stores.rest;

import dev.engram.access.Caller;
import dev.engram.access.Denied;
import dev.engram.access.Grant;
import dev.engram.access.Role;
import dev.engram.documents.stores.MemoryStoreIds;
import dev.engram.documents.stores.MemoryStores;
import dev.engram.documents.stores.PageCursor;
import dev.engram.documents.stores.ProfileRules;
import dev.engram.documents.stores.StoreProfile;
import dev.engram.documents.stores.StoreQuery;
import dev.engram.documents.stores.View;
import dev.engram.documents.stores.rest.StoreApiJson.CreateMemoryStore;
import dev.engram.documents.stores.rest.StoreApiJson.MemoryStoreDeletion;
import dev.engram.documents.stores.rest.StoreApiJson.MemoryStorePage;
import dev.engram.documents.stores.rest.StoreApiJson.MemoryStoreJson;
import dev.engram.documents.stores.rest.StoreApiJson.UpdateMemoryStore;
import dev.engram.entries.EntryRules;
import dev.engram.kernel.Invalid;
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
import java.util.Map;
import java.util.Optional;

/**
 * The Memory Stores API's stores (Claude Managed Agents), over Engram's: every store the caller reaches is a memory
 * store {@code memstore_<store id>}. Creating one makes a new store (write on every scope of it, and room in the
 * key's quota of stores); its id starts as the key's grant allows ({@code acme-*}: {@code acme-ms-...}). Reading
 * takes only reaching it; changing its profile, archiving and deleting take admin. Archiving is one-way: the store's
 * memories are read-only from then, and its profile too (400). Deleting erases its memories (each a deletion, every
 * version redacted) and its profile; Engram never removes a store, so the id stays, naming an empty store.
 */
@Path("/v1/memory_stores")
@Produces(MediaType.APPLICATION_JSON)
public class MemoryStoresResource {

    @Inject
    MemoryStores stores;

    @Inject
    StoreDoor door;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public MemoryStoreJson create(CreateMemoryStore body, @HeaderParam(Preconditions.SESSION) String session) {
        CreateMemoryStore b = body == null ? new CreateMemoryStore(null, null, null) : body;
        String name = ProfileRules.name(b.name());
        String description = ProfileRules.description(b.description() == null ? "" : b.description());
        Map<String, String> metadata = b.metadata() == null ? Map.of() : b.metadata();
        ProfileRules.metadata(metadata, metadata.size());
        if (b.metadata() != null && b.metadata().containsValue(null)) {
            throw new Invalid("metadata-value", "metadata", "A new store's metadata values are strings; leave a "
                    + "key out rather than setting it to null.");
        }
        String store = newStore(door.gate().caller());
        door.gate().in(store).checkWritesEvery();
        door.gate().mayCreate(store);
        return MemoryStoreJson.of(stores.create(store, name, description, metadata, door.actor(session)));
    }

    @GET
    public MemoryStorePage list(@QueryParam("created_at[gte]") String from, @QueryParam("created_at[lte]") String to,
            @QueryParam("include_archived") String archived, @QueryParam("limit") String limit,
            @QueryParam("page") String page) {
        int size = View.BASIC.pageSize(QueryValues.integer(limit, "limit"));
        StoreQuery query = new StoreQuery(QueryValues.time(from, "created_at[gte]"),
                QueryValues.time(to, "created_at[lte]"), QueryValues.bool(archived, "include_archived"));
        String after = PageCursor.position(page, 's');
        List<Object> data = new ArrayList<>();
        while (true) {
            List<StoreProfile> batch = stores.stores(query, after, 100);
            for (StoreProfile p : batch) {
                if (!door.gate().in(p.store()).reaches()) {
                    after = stores.position(p);
                    continue;
                }
                if (data.size() == size) {
                    return new MemoryStorePage(data, PageCursor.of('s', after));
                }
                data.add(MemoryStoreJson.of(p));
                after = stores.position(p);
            }
            if (batch.size() < 100) {
                return new MemoryStorePage(data, null);
            }
        }
    }

    @GET
    @Path("{memory_store_id}")
    public MemoryStoreJson retrieve(@PathParam("memory_store_id") String id) {
        return MemoryStoreJson.of(door.open(id).profile());
    }

    @POST
    @Path("{memory_store_id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public MemoryStoreJson update(@PathParam("memory_store_id") String id, UpdateMemoryStore body,
            @HeaderParam(Preconditions.SESSION) String session) {
        StoreDoor.Reached s = door.open(id);
        s.access().checkAdminister();
        UpdateMemoryStore b = body == null ? new UpdateMemoryStore(null, null, null) : body;
        Optional<String> name = Optional.ofNullable(b.name()).map(ProfileRules::name);
        Optional<String> description = Optional.ofNullable(b.description()).map(ProfileRules::description);
        Map<String, String> metadata = b.metadata() == null ? Map.of() : b.metadata();
        ProfileRules.metadata(metadata, 0);
        return MemoryStoreJson.of(stores.update(s.store(), name, description, metadata, door.actor(session)));
    }

    @DELETE
    @Path("{memory_store_id}")
    public MemoryStoreDeletion delete(@PathParam("memory_store_id") String id,
            @HeaderParam(Preconditions.SESSION) String session) {
        StoreDoor.Reached s = door.open(id);
        s.access().checkAdminister();
        stores.delete(s.store(), door.actor(session));
        return new MemoryStoreDeletion("memory_store_deleted", id);
    }

    @POST
    @Path("{memory_store_id}/archive")
    public MemoryStoreJson archive(@PathParam("memory_store_id") String id,
            @HeaderParam(Preconditions.SESSION) String session) {
        StoreDoor.Reached s = door.open(id);
        s.access().checkAdminister();
        return MemoryStoreJson.of(stores.archive(s.store(), door.actor(session)));
    }

    /**
     * A new store's id, within what {@code caller} may create: any id for the operator or a grant on every store,
     * else the first grant with write whose pattern ends in its one {@code *} gives the id's start.
     */
    static String newStore(Caller caller) {
        if (caller.isOperator()) {
            return MemoryStoreIds.newStore("");
        }
        for (Grant g : caller.grants()) {
            String pattern = g.stores();
            if (!g.role().includes(Role.WRITE) || pattern.indexOf('*') != pattern.length() - 1) {
                continue;
            }
            String id = MemoryStoreIds.newStore(pattern.substring(0, pattern.length() - 1));
            if (EntryRules.validName(id)) {
                return id;
            }
        }
        throw new Denied(null, "write on a store pattern", List.of(), List.of(), "This key may create no store: "
                + "creating a memory store makes a new store, and only a grant with role write or admin on a "
                + "pattern ending in * (such as acme-*) leaves room for one. Ask the operator for such a key.");
    }
}
