package dev.engram.console.contexts;

import dev.engram.access.rest.ConsoleDoor;
import dev.engram.console.Chrome;
import dev.engram.console.ConsoleRequest;
import dev.engram.contexts.ContextStore;
import dev.engram.contexts.cache.CachedResult;
import dev.engram.contexts.cache.ListedResult;
import dev.engram.contexts.cache.ToolResultRead;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Paged;
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
import java.util.Arrays;
import java.util.List;

/**
 * A context's tool-result cache: its entries by short hash, a page at a time, without their content; and one entry,
 * its content (a tool's output: shown as text) {@value ToolResultRead#MAX_LINES} lines at a time. Reading one here
 * is not a {@code tool_result_read}: it is not counted as one.
 */
@Path(ConsoleDoor.ROOT + "/stores/{store}/contexts/{id}/tool-results")
@Produces(MediaType.TEXT_HTML)
public class ToolResultPages {

    /** How many lines of an output one page shows. */
    static final int LINES = ToolResultRead.MAX_LINES;

    @CheckedTemplate(basePath = "console/contexts", requireTypeSafeExpressions = false)
    static class Templates {
        static native TemplateInstance toolResults(Chrome chrome, String store, String id, List<ListedResult> results,
                String next);

        static native TemplateInstance toolResult(Chrome chrome, String store, String id, CachedResult result,
                Lines lines);
    }

    /**
     * A window of an output: its lines {@code first} to {@code last} (from 1) of {@code count}, and where the
     * windows before and after it start (null at either end).
     */
    public record Lines(String text, int first, int last, int count, Integer earlier, Integer later) {
    }

    @Inject
    ContextStore contexts;

    @Inject
    ConsoleRequest request;

    @Inject
    EngramConfig config;

    /** The cached results by short hash after {@code after}. */
    @GET
    public TemplateInstance list(@PathParam("store") String storeId, @PathParam("id") String id,
            @QueryParam("after") String after) {
        String store = ContextGrants.reading(request, storeId, id).store();
        String from = after == null || !after.matches("[0-9a-f]{1,64}") ? "" : after;
        Paged<ListedResult> page = contexts.toolResults(store, id, from, config.console().pageSize());
        String next = page.more() ? page.items().get(page.items().size() - 1).shortHash() : null;
        return Templates.toolResults(request.chrome(), store, id, page.items(), next);
    }

    /** The result {@code hash} names (its short hash, its full one or a prefix naming one), from line {@code from}. */
    @GET
    @Path("{hash}")
    public TemplateInstance result(@PathParam("store") String storeId, @PathParam("id") String id,
            @PathParam("hash") String hash, @QueryParam("from") String from) {
        String store = ContextGrants.reading(request, storeId, id).store();
        if (hash == null || !hash.matches("[0-9a-f]{1,64}")) {
            contexts.outline(store, id);
            throw NotFound.toolResult(id, String.valueOf(hash));
        }
        CachedResult result = contexts.toolResult(store, id, hash).orElseThrow(() -> NotFound.toolResult(id, hash));
        int start = (int) Params.number(from, "from", 1, Integer.MAX_VALUE, 1);
        return Templates.toolResult(request.chrome(), store, id, result, lines(result.content(), start));
    }

    /** The window of {@code content} from line {@code start} (from 1; past the last, the last window). */
    static Lines lines(String content, int start) {
        String[] all = content.split("\n", -1);
        int count = all.length;
        int first = Math.min(start, Math.max(1, count - LINES + 1));
        int last = Math.min(count, first + LINES - 1);
        String text = String.join("\n", Arrays.asList(all).subList(first - 1, last));
        return new Lines(text, first, last, count, first > 1 ? Math.max(1, first - LINES) : null,
                last < count ? last + 1 : null);
    }
}
