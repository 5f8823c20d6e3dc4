package dev.engram.api;

import dev.engram.memory.Change;
import dev.engram.memory.Entry;
import dev.engram.memory.Invalid;
import dev.engram.memory.NotFound;
import dev.engram.memory.Patch;
import dev.engram.memory.PutOptions;
import dev.engram.memory.Scope;
import dev.engram.memory.Store;
import dev.engram.memory.Stores;
import dev.engram.ops.EngramConfig;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/** The entries of one scope: list, read with its ETag, write whole, patch, forget. */
@Path("/v1/stores/{store}/scopes/{scope}/entries")
@Produces(MediaType.APPLICATION_JSON)
public class EntryResource {

    @Inject
    Stores stores;

    @Inject
    WriteOutcomes outcomes;

    @Inject
    EngramConfig config;

    @PathParam("store")
    String storeId;

    @PathParam("scope")
    String scopeValue;

    @GET
    public Replies.Entries list() {
        Store store = store();
        List<Entry> entries = store.list(Params.scope(scopeValue));
        if (entries.isEmpty()) {
            requireStore();
        }
        return new Replies.Entries(entries.stream().map(EntryJson::of).toList());
    }

    @GET
    @Path("{name}")
    public Response get(@PathParam("name") String name, @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch) {
        Entry e = store().get(Params.scope(scopeValue), Params.name(name));
        String etag = Preconditions.quote(e.version());
        if (Preconditions.noneMatch(ifNoneMatch, e.version())) {
            return Response.notModified().header(HttpHeaders.ETAG, etag).build();
        }
        return Response.ok(EntryJson.of(e)).header(HttpHeaders.ETAG, etag).build();
    }

    /**
     * Creates or replaces the entry whole; 201 with its Location (a path, never built from the Host header) when
     * created, 200 when replaced. The ETag is the new version.
     */
    @PUT
    @Path("{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response put(@PathParam("name") String name, Bodies.PutEntry body,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch, @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch,
            @HeaderParam(Preconditions.BASED_ON) String basedOn, @HeaderParam(Preconditions.SESSION) String session) {
        Scope scope = Params.scope(scopeValue);
        Params.name(name);
        PutOptions options = Preconditions.read(ifMatch, ifNoneMatch, basedOn, session);
        if (body == null || body.content() == null) {
            throw new Invalid("content-missing", "content", "The body has no content; send {\"content\": \"...\"}"
                    + " with the whole entry, and meta if it has any.");
        }
        Change c = outcomes.landed(store().put(Entry.draft(scope, name, body.content(), body.meta()), options));
        Response.ResponseBuilder r = c.replaced().isEmpty()
                ? Response.status(Response.Status.CREATED).header(HttpHeaders.LOCATION, location(name)) : Response.ok();
        return r.entity(ChangeJson.of(c)).header(HttpHeaders.ETAG, Preconditions.quote(c.entry().version())).build();
    }

    /**
     * Replaces exactly one occurrence of old_text, retrying with a pause on concurrent writes until it lands or the
     * configured deadline passes, unless If-Match pins the state.
     */
    @PATCH
    @Path("{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response patch(@PathParam("name") String name, Bodies.PatchEntry body,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch, @HeaderParam(Preconditions.SESSION) String session) {
        Scope scope = Params.scope(scopeValue);
        Params.name(name);
        PutOptions options = Preconditions.read(ifMatch, null, null, session);
        if (body == null) {
            throw new Invalid("body-missing", "", "The body is empty; send {\"old_text\": \"...\", \"new_text\": "
                    + "\"...\"}.");
        }
        Patch patch = new Patch(body.oldText(), body.newText());
        Change c = outcomes.landed(patch.applyTo(store(), scope, name, options, config.patchDeadline()));
        return Response.ok(ChangeJson.of(c)).header(HttpHeaders.ETAG, Preconditions.quote(c.entry().version())).build();
    }

    /** Forgets the entry: a tombstone in the journal keeps its last content. */
    @DELETE
    @Path("{name}")
    public ChangeJson forget(@PathParam("name") String name, @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
            @HeaderParam(Preconditions.SESSION) String session) {
        Scope scope = Params.scope(scopeValue);
        Params.name(name);
        PutOptions options = Preconditions.read(ifMatch, null, null, session);
        return ChangeJson.of(outcomes.landed(store().forget(scope, name, options)));
    }

    private Store store() {
        return stores.store(Params.store(storeId));
    }

    private void requireStore() {
        if (!stores.exists(storeId)) {
            throw NotFound.store(storeId);
        }
    }

    private String location(String name) {
        return "/v1/stores/" + storeId + "/scopes/" + scopeValue + "/entries/" + name;
    }
}
