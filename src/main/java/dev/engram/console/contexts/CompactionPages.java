package dev.engram.console.contexts;

import dev.engram.access.rest.ConsoleDoor;
import dev.engram.console.Chrome;
import dev.engram.console.ConsoleRequest;
import dev.engram.contexts.ContextChange;
import dev.engram.contexts.ContextStore;
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
import java.util.List;
import java.util.Set;

/**
 * A context's compactions, newest first, a page at a time, from their journal records: the strategy that ran, the
 * fill before and after, the steps the prefix replaced and the texts it put in their place (a model's summaries,
 * fallback texts, or a note of their omission; shown as text).
 */
@Path(ConsoleDoor.ROOT + "/stores/{store}/contexts/{id}/compactions")
@Produces(MediaType.TEXT_HTML)
public class CompactionPages {

    @CheckedTemplate(basePath = "console/contexts", requireTypeSafeExpressions = false)
    static class Templates {
        static native TemplateInstance compactions(Chrome chrome, String store, String id,
                List<CompactionView> compactions, Long next);
    }

    @Inject
    ContextStore contexts;

    @Inject
    ConsoleRequest request;

    @Inject
    EngramConfig config;

    /** The compactions recorded before record {@code before} (the newest when none is asked). */
    @GET
    public TemplateInstance compactions(@PathParam("store") String storeId, @PathParam("id") String id,
            @QueryParam("before") String before) {
        String store = ContextGrants.reading(request, storeId, id).store();
        contexts.outline(store, id);
        long below = Params.number(before, "before", 1, Long.MAX_VALUE, Long.MAX_VALUE);
        Paged<ContextChange> page = contexts.changes(store, id, Set.of(ContextChange.COMPACTED), below,
                config.console().pageSize());
        Long next = page.more() ? page.items().get(page.items().size() - 1).seq() : null;
        return Templates.compactions(request.chrome(), store, id,
                page.items().stream().map(CompactionView::of).toList(), next);
    }
}
