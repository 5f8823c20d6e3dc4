package dev.engram.memories.rest;

import dev.engram.rest.IdempotencyKeys;
import dev.engram.rest.Params;
import dev.engram.problems.ReadOnly;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.engram.access.rest.Gate;
import dev.engram.kernel.Invalid;
import dev.engram.memories.Bank;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Paged;
import dev.engram.ops.EngramConfig;
import dev.engram.memories.Scored;
import dev.engram.memories.Memory;
import dev.engram.memories.Saved;
import dev.engram.memories.MemoryPage;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.Recall;
import dev.engram.memories.Recalls;
import dev.engram.memories.SearchOptions;
import dev.engram.memories.rank.Ranking;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * A store's memories (seed 003): save, read, list, search, delete, and the few changes the seed has. Memories have
 * no scope, so reading them takes a grant that reads every scope of the store, changing them one that writes every
 * scope, and clearing them admin.
 */
@Path("/v1/stores/{store}/memories")
@Produces(MediaType.APPLICATION_JSON)
public class MemoryResource {

    @Inject
    Recalls recalls;

    @Inject
    Gate gate;

    @Inject
    IdempotencyKeys keys;

    @Inject
    EngramConfig config;

    @PathParam("store")
    String storeId;

    /**
     * A list of memories: a page of all with the total, or a bank's or a type's; {@code truncated} (only when true)
     * when it ended before the limit at {@code engram.limits.page-bytes}.
     */
    public record MemoriesJson(List<MemoryJson> memories, Long total,
            @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean truncated) {
    }

    /** What a search found, best first; {@code truncated} (only when true) when the page's byte bound ended it. */
    public record ResultsJson(List<MemoryJson.ScoredJson> results,
            @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean truncated) {
    }

    /** {@code {"reason"}}, {@code {"by"}}, {@code {"by", "summary"}}: what a change names. */
    public record Action(String reason, String by, String summary) {
    }

    /** Saves a memory under an id Engram makes (or the body's); at most once under an {@code Idempotency-Key}. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<MemoryJson> save(MemoryJson.Save body, @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        Memory draft = required(body).toMemory(null);
        return saved(draft, keys.read(key, "POST", "/v1/stores/" + storeId + "/memories", body),
                RestResponse.Status.CREATED);
    }

    /**
     * Saves up to {@link MemoryRules#MAX_BATCH} memories at once, all or none, each journaled as a single save is; at
     * most once under an {@code Idempotency-Key}.
     */
    @POST
    @Path("batch")
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<MemoryJson.SavedJson> saveBatch(MemoryJson.Batch body,
            @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        List<Memory> drafts = required(body).toMemories();
        Optional<IdempotencyKey> k = keys.read(key, "POST", "/v1/stores/" + storeId + "/memories/batch", body);
        Saved<List<Memory>> stored = k.isEmpty() ? new Saved.Landed<>(recall().saveAll(drafts))
                : recall().saveAll(drafts, k.get());
        return IdempotencyKeys.replayed(RestResponse.ResponseBuilder.<MemoryJson.SavedJson>create(
                RestResponse.Status.CREATED).entity(new MemoryJson.SavedJson(json(stored.value()))),
                stored instanceof Saved.Replayed);
    }

    /** The answer to a save: the memory as stored, or as first stored when a key replays it. */
    private RestResponse<MemoryJson> saved(Memory draft, Optional<IdempotencyKey> key, RestResponse.Status status) {
        Saved<Memory> saved = key.isEmpty() ? new Saved.Landed<>(recall().save(draft)) : recall().save(draft, key.get());
        Memory m = saved.value();
        var answer = RestResponse.ResponseBuilder.<MemoryJson>create(status).entity(MemoryJson.of(m));
        if (status == RestResponse.Status.CREATED) {
            answer.header(HttpHeaders.LOCATION, "/v1/stores/" + storeId + "/memories/" + m.id());
        }
        return IdempotencyKeys.replayed(answer, saved instanceof Saved.Replayed);
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<MemoryJson> put(@PathParam("id") String id, MemoryJson.Save body,
            @HeaderParam(IdempotencyKey.HEADER) String key) {
        writable();
        MemoryRules.checkId(id, "id");
        if (required(body).id() != null && !body.id().equals(id)) {
            throw new Invalid("id-mismatch", "id", "The body's id " + body.id() + " is not the path's " + id
                    + "; leave it out of the body.");
        }
        return saved(body.toMemory(id), keys.read(key, "PUT", "/v1/stores/" + storeId + "/memories/" + id, body),
                RestResponse.Status.OK);
    }

    @GET
    @Path("{id}")
    public MemoryJson get(@PathParam("id") String id) {
        readable();
        return MemoryJson.of(recall().get(id(id)));
    }

    @DELETE
    @Path("{id}")
    public RestResponse<Void> delete(@PathParam("id") String id) {
        writable();
        recall().delete(id(id));
        return RestResponse.noContent();
    }

    /**
     * {@code ?bank=} the bank's memories but archived ones, most important first; {@code ?type=} a type's, across
     * banks; neither: a page of every memory, newest first, with the total ({@code limit}, {@code offset}).
     */
    @GET
    public MemoriesJson list(@QueryParam("bank") String bank, @QueryParam("type") String type,
            @QueryParam("limit") String limit, @QueryParam("offset") String offset) {
        readable();
        int n = (int) Params.number(limit, "limit", 1, Recall.MAX_LIMIT, Recall.DEFAULT_LIMIT);
        if (bank != null && type != null) {
            throw new Invalid("list-filter", "type", "List by bank or by type, not both; search filters on both.");
        }
        long maxBytes = config.limits().pageBytes();
        if (bank != null) {
            Paged<Memory> page = recall().inBank(Bank.parse(bank), n, maxBytes);
            return new MemoriesJson(json(page.items()), null, page.more());
        }
        if (type != null) {
            MemoryRules.checkType(type);
            Paged<Memory> page = recall().ofType(type, n, maxBytes);
            return new MemoriesJson(json(page.items()), null, page.more());
        }
        MemoryPage page = recall().list(n, (int) Params.number(offset, "offset", 0, Integer.MAX_VALUE, 0), maxBytes);
        return new MemoriesJson(json(page.memories()), page.total(), page.truncated());
    }

    @POST
    @ReadOnly
    @Path("search")
    @Consumes(MediaType.APPLICATION_JSON)
    public ResultsJson search(MemoryJson.Search body) {
        readable();
        MemoryJson.Search b = required(body);
        int topK = b.topK() == null ? SearchOptions.DEFAULT_TOP_K : b.topK();
        if (topK < 1 || topK > SearchOptions.MAX_TOP_K) {
            throw new Invalid("number-range", "top_k", "top_k must be from 1 to " + SearchOptions.MAX_TOP_K + ".");
        }
        if (b.type() != null && !b.type().isEmpty()) {
            MemoryRules.checkType(b.type());
        }
        List<String> banks = b.banks() == null ? List.of() : b.banks().stream()
                .map(x -> x == null ? Bank.parse(null) : x.toBank()).map(Bank::bankId).toList();
        SearchOptions options = new SearchOptions(b.query(), topK, b.minScore() == null ? 0 : b.minScore(),
                Boolean.TRUE.equals(b.includeArchived()), Boolean.TRUE.equals(b.includeStale()), b.type(), banks,
                b.ranking() == null ? null : Ranking.parse(b.ranking(), "ranking"), Boolean.TRUE.equals(b.explain()));
        Paged<Scored> found = recall().search(options, config.limits().pageBytes());
        return new ResultsJson(found.items().stream()
                .map(s -> new MemoryJson.ScoredJson(MemoryJson.of(s.memory()), s.score(), s.explain())).toList(),
                found.more());
    }

    /** Deletes every memory of the store (admin): banks' settings, slots and mental models stay. */
    @DELETE
    public Map<String, Long> clear() {
        gate.in(Params.store(storeId)).checkAdminister();
        return Map.of("cleared", recall().clear());
    }

    @POST
    @Path("{id}/archive")
    @Consumes(MediaType.APPLICATION_JSON)
    public MemoryJson archive(@PathParam("id") String id, Action body) {
        writable();
        return MemoryJson.of(recall().archive(id(id), MemoryRules.shortText(body == null ? null : body.reason(), "reason")));
    }

    @POST
    @Path("{id}/unarchive")
    public MemoryJson unarchive(@PathParam("id") String id) {
        writable();
        return MemoryJson.of(recall().unarchive(id(id)));
    }

    @POST
    @Path("{id}/supersede")
    @Consumes(MediaType.APPLICATION_JSON)
    public MemoryJson supersede(@PathParam("id") String id, Action body) {
        writable();
        String by = body == null || body.by() == null ? "" : body.by();
        if (!by.isEmpty()) {
            MemoryRules.checkId(by, "by");
        }
        return MemoryJson.of(recall().supersede(id(id), by));
    }

    /** Counts one use of the memory; not a journal record. */
    @POST
    @Path("{id}/access")
    public MemoryJson access(@PathParam("id") String id) {
        writable();
        return MemoryJson.of(recall().access(id(id)));
    }

    @POST
    @Path("{id}/revisions")
    @Consumes(MediaType.APPLICATION_JSON)
    public MemoryJson revise(@PathParam("id") String id, Action body) {
        writable();
        Action b = required(body);
        return MemoryJson.of(recall().revise(id(id), MemoryRules.shortText(b.by(), "by"), MemoryRules.shortText(b.summary(), "summary")));
    }

    private Recall recall() {
        return recalls.in(Params.store(storeId));
    }

    private void readable() {
        gate.checkReadsMemories(Params.store(storeId));
    }

    private void writable() {
        gate.checkChangesMemories(Params.store(storeId));
    }

    private static String id(String id) {
        MemoryRules.checkId(id, "id");
        return id;
    }

    private static <T> T required(T body) {
        if (body == null) {
            throw new Invalid("body-missing", "", "The body is empty; send a JSON object.");
        }
        return body;
    }


    private static List<MemoryJson> json(List<Memory> memories) {
        return memories.stream().map(MemoryJson::of).toList();
    }
}
