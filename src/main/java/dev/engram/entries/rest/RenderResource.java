package dev.engram.entries.rest;

import dev.engram.rest.Params;
import dev.engram.rest.Preconditions;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.engram.access.rest.Gate;
import dev.engram.kernel.Invalid;
import dev.engram.entries.Listing;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Paged;
import dev.engram.kernel.Scope;
import dev.engram.entries.Store;
import dev.engram.entries.Stores;
import dev.engram.ops.EngramConfig;
import dev.engram.entries.render.ManifestEntry;
import dev.engram.entries.render.Render;
import dev.engram.entries.render.RenderCache;
import dev.engram.entries.render.Rendered;
import dev.engram.entries.render.SessionManifests;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The memory block for the model's instructions: Markdown by default, or JSON with its parts and manifest; and,
 * rendered for a session, recorded in that session's manifest log when it moved. One instance for every request (the
 * store is an argument, not a field); what a request asks is read by {@link RenderRequests}, as the console's render
 * preview reads it.
 */
@Path("/v1/stores/{store}")
@Singleton
public class RenderResource {

    static final String MARKDOWN = "text/markdown";
    static final String MANIFEST_HASH = "Engram-Manifest-Hash";

    @Inject
    Stores stores;

    @Inject
    SessionManifests sessions;

    @Inject
    EngramConfig config;

    @Inject
    Gate gate;

    @Inject
    RenderRequests requests;

    /** The block, its parts and its manifest. */
    public record RenderJson(String block, List<PartJson> parts, ManifestJson manifest, String manifestHash) {

        static RenderJson of(RenderCache.Made made) {
            Rendered r = made.rendered();
            return new RenderJson(made.block(), r.parts().stream().map(p -> new PartJson(p.id(), p.text())).toList(),
                    ManifestJson.of(r.manifest()), r.manifest().hash());
        }
    }

    /** One part of the block. */
    public record PartJson(String id, String text) {
    }

    /** A render for a session, and the record it appended to the session's log, if it moved. */
    public record SessionRenderJson(String block, List<PartJson> parts, ManifestJson manifest, String manifestHash,
            boolean recorded, Integer recordSeq, @JsonRawValue String record) {
    }

    @GET
    @Path("render")
    @Produces({MARKDOWN, MediaType.APPLICATION_JSON})
    public Response render(@PathParam("store") String storeId, @QueryParam("scope") List<String> scopes,
            @QueryParam("max_total_bytes") String max, @QueryParam("scope_max_bytes") List<String> caps,
            @Context HttpHeaders headers) {
        RenderCache.Made r = render(storeId, scopes, max, caps, false);
        if (wantsJson(headers)) {
            return Response.ok(RenderJson.of(r), MediaType.APPLICATION_JSON).build();
        }
        return markdown(r).build();
    }

    @POST
    @Path("sessions/{session}/render")
    @Produces({MARKDOWN, MediaType.APPLICATION_JSON})
    public Response renderForSession(@PathParam("store") String storeId, @PathParam("session") String session,
            @QueryParam("scope") List<String> scopes, @QueryParam("max_total_bytes") String max,
            @QueryParam("scope_max_bytes") List<String> caps, @QueryParam("omit") String omit,
            @Context HttpHeaders headers) {
        String id = Preconditions.session(session);
        gate.in(Params.store(storeId)).checkWritesAny();
        RenderCache.Made r = omit == null ? render(storeId, scopes, max, caps, true)
                : omitted(storeId, scopes, max, caps, omit);
        Optional<SessionManifests.SessionRecord> written = sessions.record(storeId, id, r.rendered().manifest());
        if (wantsJson(headers)) {
            RenderJson j = RenderJson.of(r);
            return Response.ok(new SessionRenderJson(j.block(), j.parts(), j.manifest(), j.manifestHash(),
                    written.isPresent(), written.map(SessionManifests.SessionRecord::seq).orElse(null),
                    written.map(SessionManifests.SessionRecord::record).orElse(null)), MediaType.APPLICATION_JSON)
                    .build();
        }
        return markdown(r).header("Engram-Manifest-Recorded", written.isPresent()).build();
    }

    /** One record of a session's manifest log. */
    public record SessionRecordJson(int seq, @JsonRawValue String record, String hash, Instant at) {
    }

    /**
     * A page of a session's manifest log (records after {@code next}'s predecessor, {@code more} when the log goes
     * on) and the manifest in force after the whole log.
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record ManifestsJson(List<SessionRecordJson> records, Integer next, boolean more, ManifestJson manifest,
            String manifestHash) {
    }

    /** The session's manifest records with seq after {@code after}, at most {@code limit}, and the manifest in force. */
    @GET
    @Path("sessions/{session}/manifests")
    @Produces(MediaType.APPLICATION_JSON)
    public ManifestsJson manifests(@PathParam("store") String storeId, @PathParam("session") String session,
            @QueryParam("after") String after, @QueryParam("limit") String limit) {
        gate.in(Params.store(storeId)).checkReadsEvery();
        long from = Params.number(after, "after", 0, Integer.MAX_VALUE, 0);
        int n = (int) Params.number(limit, "limit", 1, config.list().maxLimit(), config.list().defaultLimit());
        SessionManifests.SessionHistory h = sessions.history(Params.store(storeId), Preconditions.session(session));
        List<SessionRecordJson> records = h.records().stream().filter(r -> r.seq() > from)
                .map(r -> new SessionRecordJson(r.seq(), r.record(), r.hash(), r.at())).toList();
        Paged<SessionRecordJson> paged = Paged.of(records, n, config.limits().pageBytes(),
                r -> dev.engram.kernel.Utf8.length(r.record()));
        boolean more = paged.more();
        List<SessionRecordJson> page = paged.items();
        return new ManifestsJson(page, more ? page.get(page.size() - 1).seq() : null, more,
                ManifestJson.of(h.inForce()), h.inForce().hash());
    }

    /**
     * Renders the store's scopes with its bound as of the same moment (kept while the store's entries and bound are
     * unchanged, {@link RenderCache}); a store that does not exist renders empty, or is {@link NotFound} when
     * {@code mustExist} (a session render, which would record what the session was shown).
     */
    private RenderCache.Made render(String storeId, List<String> scopeValues, String max, List<String> caps,
            boolean mustExist) {
        RenderCache.Made made = requests.render(requests.asked(storeId, scopeValues, max, caps));
        if (mustExist && !made.exists()) {
            throw NotFound.store(storeId);
        }
        return made;
    }

    /**
     * What a session was shown on a turn the product left the block out ({@code omit=block}): no block, no parts, and
     * the manifest of seed 000's {@code OmitBlock}, every entry of the scopes omitted for that reason. It takes no
     * bounds, since nothing is rendered.
     */
    private RenderCache.Made omitted(String storeId, List<String> scopeValues, String max, List<String> caps,
            String omit) {
        if (!ManifestEntry.OMIT_BLOCK.equals(omit)) {
            throw new Invalid("omit-value", "omit", "omit takes block (the product left the whole block out of this "
                    + "turn), not \"" + omit + "\"; leave it out to render the block.");
        }
        if (max != null || (caps != null && !caps.isEmpty())) {
            throw new Invalid("omit-bounds", max != null ? "max_total_bytes" : "scope_max_bytes", "omit=block "
                    + "renders nothing, so it takes no max_total_bytes or scope_max_bytes; send scope alone.");
        }
        Store store = stores.store(Params.store(storeId));
        List<Scope> scopes = gate.in(storeId).narrowReads(Params.scopes(scopeValues));
        Listing listing = store.listing(scopes);
        if (!listing.exists()) {
            throw NotFound.store(storeId);
        }
        List<Scope> order = scopes.isEmpty() ? new ArrayList<>(listing.lists().keySet()) : scopes;
        return RenderCache.Made.of(new Rendered(List.of(), Render.omittedBlock(listing.lists(), order)), true);
    }

    private static boolean wantsJson(HttpHeaders headers) {
        return headers.getAcceptableMediaTypes().stream()
                .anyMatch(t -> t.getType().equals("application") && t.getSubtype().equals("json"));
    }

    /** The block as Markdown, its bytes encoded once when it was rendered. */
    private static Response.ResponseBuilder markdown(RenderCache.Made r) {
        return Response.ok(r.utf8(), MARKDOWN + "; charset=utf-8").header(MANIFEST_HASH,
                r.rendered().manifest().hash());
    }
}
