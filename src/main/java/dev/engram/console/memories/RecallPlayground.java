package dev.engram.console.memories;

import dev.engram.access.rest.ConsoleDoor;
import dev.engram.access.rest.Gate;
import dev.engram.console.Chrome;
import dev.engram.console.ConsoleRequest;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Paged;
import dev.engram.memories.Bank;
import dev.engram.memories.Memory;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.Recalls;
import dev.engram.memories.Scored;
import dev.engram.memories.SearchOptions;
import dev.engram.memories.rank.Ranking;
import dev.engram.ops.EngramConfig;
import dev.engram.rest.Params;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The recall playground: a search of the store's memories as {@code POST /v1/stores/{s}/memories/search} makes it
 * with {@code "explain": true}, asked by a GET form so that a search is a link, and each result with the parts its
 * score was made of, as numbers and bars. Reading takes what the API's search takes (read on every scope); a search
 * is not an access and writes nothing.
 */
@Path(ConsoleDoor.ROOT + "/stores/{store}/recall")
@Produces(MediaType.TEXT_HTML)
public class RecallPlayground {

    @CheckedTemplate(basePath = "console/memories", requireTypeSafeExpressions = false)
    static class Templates {
        static native TemplateInstance recall(Chrome chrome, String store, Asked asked, List<String> rankings,
                List<String> types, String error, boolean searched, List<RankedResult> results, boolean truncated,
                String note, List<String> parts);
    }

    /** The search as the form asked it, for its fields. */
    public record Asked(String query, String banks, String type, String ranking, String topK, boolean archived,
            boolean stale) {
    }

    @Inject
    Recalls recalls;

    @Inject
    Gate gate;

    @Inject
    ConsoleRequest request;

    @Inject
    EngramConfig config;

    /**
     * The form and, when it asks a query, the results with their scores' parts; a search the API would refuse shows
     * why on the page (422). {@code banks} takes bank ids repeated or separated by spaces.
     */
    @GET
    public Response recall(@PathParam("store") String storeId, @QueryParam("query") String query,
            @QueryParam("banks") List<String> banks, @QueryParam("type") String type,
            @QueryParam("ranking") String ranking, @QueryParam("top_k") String topK,
            @QueryParam("include_archived") String archived, @QueryParam("include_stale") String stale) {
        String store = MemoryGrants.reading(gate, storeId);
        List<String> bankIds = words(banks);
        Asked asked = new Asked(query == null ? "" : query, String.join(" ", bankIds), type == null ? "" : type,
                ranking == null ? "" : ranking, topK == null ? "" : topK.strip(), "yes".equals(archived),
                "yes".equals(stale));
        if (asked.query().isBlank()) {
            return Response.ok(page(store, asked, null, null)).build();
        }
        Paged<Scored> found;
        try {
            found = recalls.in(store).search(options(asked, bankIds), config.limits().pageBytes());
        } catch (Invalid refused) {
            return Response.status(422).entity(page(store, asked, refused.getMessage(), null)).build();
        }
        return Response.ok(page(store, asked, null, found)).build();
    }

    /** The search the form asks, checked as the API checks its body. */
    private static SearchOptions options(Asked asked, List<String> bankIds) {
        int k = (int) Params.number(asked.topK(), "top_k", 1, SearchOptions.MAX_TOP_K, SearchOptions.DEFAULT_TOP_K);
        if (!asked.type().isEmpty()) {
            MemoryRules.checkType(asked.type());
        }
        List<String> banks = bankIds.stream().map(b -> Bank.parse(b).bankId()).toList();
        Ranking r = asked.ranking().isEmpty() ? null : Ranking.parse(asked.ranking(), "ranking");
        return new SearchOptions(asked.query(), k, 0, asked.archived(), asked.stale(), asked.type(), banks, r, true);
    }

    /** The page of {@code asked}: its results, when it was run, and the note their ranking made (the same on each). */
    private TemplateInstance page(String store, Asked asked, String error, Paged<Scored> found) {
        List<RankedResult> results = found == null ? null : RankedResult.of(found.items());
        String note = found == null ? "" : found.items().stream().filter(s -> s.explain() != null)
                .map(s -> s.explain().note()).filter(n -> n != null && !n.isEmpty()).findFirst().orElse("");
        return Templates.recall(request.chrome(), store, asked, Arrays.stream(Ranking.values()).map(Ranking::wire)
                .toList(), Memory.TYPES, error, found != null, results == null ? List.of() : results,
                found != null && found.more(), note, RankedResult.PARTS);
    }

    /** Each value split at spaces, blanks dropped. */
    static List<String> words(List<String> values) {
        List<String> words = new ArrayList<>();
        for (String v : values == null ? List.<String>of() : values) {
            Arrays.stream(v.split("\\s+")).filter(w -> !w.isEmpty()).forEach(words::add);
        }
        return words;
    }
}
