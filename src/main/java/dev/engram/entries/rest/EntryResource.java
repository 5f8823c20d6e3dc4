package dev.engram.entries.rest;

import dev.engram.rest.Bodies;
import dev.engram.rest.IdempotencyKeys;
import dev.engram.rest.Params;
import dev.engram.rest.Preconditions;
import dev.engram.problems.WriteOutcomes;
import dev.engram.access.rest.Gate;
import dev.engram.entries.Change;
import dev.engram.entries.Entry;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Paged;
import dev.engram.entries.Patch;
import dev.engram.entries.PutOptions;
import dev.engram.entries.Replayed;
import dev.engram.entries.Written;
import dev.engram.kernel.Scope;
import dev.engram.entries.Store;
import dev.engram.entries.Stores;
import dev.engram.ops.EngramConfig;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * The entries of one scope: list, read with its ETag, write whole, patch, forget. One instance for every request (the
 * path's parts are arguments, not fields), so a request builds no bean of its own.
 */
@Path("/v1/stores/{store}/scopes/{scope}/entries")
@Produces(MediaType.APPLICATION_JSON)
@Singleton
public class EntryResource {

    @Inject
    Stores stores;

    @Inject
    WriteOutcomes outcomes;

    @Inject
    EngramConfig config;

    @Inject
    Gate gate;

    @Inject
    IdempotencyKeys keys;

    /** A page of the scope's entries by name: after the name {@code after}, at most {@code limit}. */
    @GET
    public Replies.EntryPage list(@PathParam("store") String storeId, @PathParam("scope") String scopeValue,
            @QueryParam("after") String after, @QueryParam("limit") String limit) {
        gate.in(Params.store(storeId)).checkRead(Params.scope(scopeValue));
        Store store = store(storeId);
        int n = (int) Params.number(limit, "limit", 1, config.list().maxLimit(), config.list().defaultLimit());
        String from = after == null || after.isEmpty() ? "" : Params.name(after);
        Paged<Entry> paged = store.listPage(Params.scope(scopeValue), from, n, config.limits().pageBytes());
        List<Entry> page = paged.items();
        if (page.isEmpty()) {
            requireStore(storeId);
        }
        return new Replies.EntryPage(page.stream().map(EntryJson::of).toList(),
                paged.more() ? page.get(page.size() - 1).name() : null, paged.more());
    }

    @GET
    @Path("{name}")
    public RestResponse<EntryJson> get(@PathParam("store") String storeId, @PathParam("scope") String scopeValue,
            @PathParam("name") String name, @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch) {
        gate.in(Params.store(storeId)).checkRead(Params.scope(scopeValue));
        Entry e = store(storeId).get(Params.scope(scopeValue), Params.name(name));
        String version = e.version();
        String etag = Preconditions.quote(version);
        if (Preconditions.noneMatch(ifNoneMatch, version)) {
            return RestResponse.ResponseBuilder.<EntryJson>notModified().header(HttpHeaders.ETAG, etag).build();
        }
        return RestResponse.ResponseBuilder.ok(EntryJson.of(e)).header(HttpHeaders.ETAG, etag).build();
    }

    /**
     * Creates or replaces the entry whole; 201 with its Location (a path, never built from the Host header) when
     * created, 200 when replaced. The ETag is the new version.
     */
    @PUT
    @Path("{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<ChangeJson> put(@PathParam("store") String storeId,
            @PathParam("scope") String scopeValue, @PathParam("name") String name, Bodies.PutEntry body,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
            @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch,
            @HeaderParam(Preconditions.BASED_ON) String basedOn,
            @HeaderParam(Preconditions.SESSION) String session, @HeaderParam(IdempotencyKey.HEADER) String key) {
        Scope scope = Params.scope(scopeValue);
        gate.in(Params.store(storeId)).checkWrite(scope);
        Params.name(name);
        PutOptions options = Preconditions.read(ifMatch, ifNoneMatch, basedOn, session).by(gate.caller().id());
        if (body == null || body.content() == null) {
            throw new Invalid("content-missing", "content", "The body has no content; send {\"content\": \"...\"}"
                    + " with the whole entry, and meta if it has any.");
        }
        Entry draft = Entry.draft(scope, name, body.content(), body.meta());
        options = keys.apply(options, key, "PUT", location(storeId, scopeValue, name),
                Map.of("content", draft.content(), "meta", draft.meta()));
        gate.mayCreate(storeId);
        return answer(store(storeId).put(draft, options), location(storeId, scopeValue, name));
    }

    /**
     * Replaces exactly one occurrence of old_text, retrying with a pause on concurrent writes until it lands or the
     * configured deadline passes, unless If-Match pins the state.
     */
    @PATCH
    @Path("{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<ChangeJson> patch(@PathParam("store") String storeId,
            @PathParam("scope") String scopeValue, @PathParam("name") String name, Bodies.PatchEntry body,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
            @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch,
            @HeaderParam(Preconditions.BASED_ON) String basedOn,
            @HeaderParam(Preconditions.SESSION) String session, @HeaderParam(IdempotencyKey.HEADER) String key) {
        Scope scope = Params.scope(scopeValue);
        gate.in(Params.store(storeId)).checkWrite(scope);
        Params.name(name);
        Preconditions.refuseOnAnEdit("PATCH", ifNoneMatch, basedOn);
        PutOptions options = Preconditions.read(ifMatch, null, null, session).by(gate.caller().id());
        if (body == null) {
            throw new Invalid("body-missing", "", "The body is empty; send {\"old_text\": \"...\", \"new_text\": "
                    + "\"...\"}.");
        }
        Patch patch = new Patch(body.oldText(), body.newText());
        options = keys.apply(options, key, "PATCH", location(storeId, scopeValue, name),
                Map.of("old_text", patch.oldText(), "new_text", patch.newText()));
        return answer(patch.applyTo(store(storeId), scope, name, options, config.patchDeadline()),
                location(storeId, scopeValue, name));
    }

    /** Forgets the entry: a tombstone in the journal keeps its last content. */
    @DELETE
    @Path("{name}")
    public RestResponse<ChangeJson> forget(@PathParam("store") String storeId,
            @PathParam("scope") String scopeValue, @PathParam("name") String name,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
            @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch,
            @HeaderParam(Preconditions.BASED_ON) String basedOn,
            @HeaderParam(Preconditions.SESSION) String session, @HeaderParam(IdempotencyKey.HEADER) String key) {
        Scope scope = Params.scope(scopeValue);
        gate.in(Params.store(storeId)).checkWrite(scope);
        Params.name(name);
        Preconditions.refuseOnAnEdit("DELETE", ifNoneMatch, basedOn);
        PutOptions options = keys.apply(Preconditions.read(ifMatch, null, null, session).by(gate.caller().id()), key,
                "DELETE",
                location(storeId, scopeValue, name), null);
        return answer(store(storeId).forget(scope, name, options), location(storeId, scopeValue, name));
    }

    /** The answer to a write: counted when it landed now, marked when it replays an earlier one. */
    private RestResponse<ChangeJson> answer(Written w, String location) {
        if (w instanceof Replayed replayed) {
            return written(replayed.change(), location, true);
        }
        return written(outcomes.landed(w.change()), location, false);
    }

    /**
     * The answer to a write, the same whether it was made now or is replayed under its Idempotency-Key: the record,
     * with 201 and a Location (the entry's path, never built from the Host header) for a create, else 200; the ETag
     * of what it wrote, except on a tombstone.
     */
    private RestResponse<ChangeJson> written(Change c, String location, boolean replayed) {
        boolean created = !c.entry().deleted() && c.replaced().isEmpty();
        RestResponse.ResponseBuilder<ChangeJson> r = created
                ? RestResponse.ResponseBuilder.<ChangeJson>create(RestResponse.Status.CREATED)
                        .header(HttpHeaders.LOCATION, location)
                : RestResponse.ResponseBuilder.ok();
        if (!c.entry().deleted()) {
            r.header(HttpHeaders.ETAG, Preconditions.quote(c.entry().version()));
        }
        return IdempotencyKeys.replayed(r.entity(ChangeJson.of(c)), replayed);
    }

    private Store store(String storeId) {
        return stores.store(Params.store(storeId));
    }

    private void requireStore(String storeId) {
        if (!stores.exists(storeId)) {
            throw NotFound.store(storeId);
        }
    }

    private static String location(String storeId, String scopeValue, String name) {
        return "/v1/stores/" + storeId + "/scopes/" + scopeValue + "/entries/" + name;
    }
}
