package dev.engram.console.contexts;

import dev.engram.access.StoreAccess;
import dev.engram.access.rest.ConsoleDoor;
import dev.engram.console.Chrome;
import dev.engram.console.ConsoleRequest;
import dev.engram.contexts.Context;
import dev.engram.contexts.ContextChange;
import dev.engram.contexts.ContextOutline;
import dev.engram.contexts.ContextRules;
import dev.engram.contexts.ContextStore;
import dev.engram.contexts.FillCheck;
import dev.engram.contexts.Step;
import dev.engram.contexts.app.ContextCompactions;
import dev.engram.contexts.app.ContextMemory;
import dev.engram.kernel.Paged;
import dev.engram.ops.EngramConfig;
import dev.engram.rest.Params;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jboss.resteasy.reactive.RestForm;

/**
 * A store's contexts, a page at a time, and one context: its configuration, its fill now against its thresholds,
 * its fill over its last changes (a chart drawn by the server), and its steps a page at a time, the latest first
 * shown; a caller who writes every scope may compact it. The same grants as the contexts API: reading takes read on
 * every scope of the store, compacting write on every scope.
 */
@Path(ConsoleDoor.ROOT + "/stores/{store}/contexts")
@Produces(MediaType.TEXT_HTML)
public class ContextPages {

    @CheckedTemplate(basePath = "console/contexts", requireTypeSafeExpressions = false)
    static class Templates {
        static native TemplateInstance list(Chrome chrome, String store, List<ContextOutline> contexts, String next);

        static native TemplateInstance context(Chrome chrome, String store, ContextOutline context, FillCheck fill,
                FillGauge gauge, List<ContextSettings.Setting> settings, FillChart chart, StepsPage steps,
                boolean writes, String compacted);
    }

    /**
     * One page of a context's steps: those shown, which of {@code count} they are (numbers from 1), and where the
     * pages before and after it start (indexes from 0; null at either end).
     */
    public record StepsPage(List<StepView> steps, int first, int last, int count, Integer earlier, Integer later,
            Integer latest) {
    }

    @Inject
    ContextStore contexts;

    @Inject
    ContextMemory memory;

    @Inject
    ContextCompactions compactions;

    @Inject
    ConsoleRequest request;

    @Inject
    EngramConfig config;

    /** The store's contexts by id, after {@code after}. */
    @GET
    public TemplateInstance list(@PathParam("store") String storeId, @QueryParam("after") String after) {
        String store = ContextGrants.reading(request, storeId).store();
        String from = after == null || after.isEmpty() ? "" : after;
        if (!from.isEmpty()) {
            ContextRules.checkId(from);
        }
        Paged<ContextOutline> page = contexts.list(store, from, config.console().pageSize());
        String next = page.more() ? page.items().get(page.items().size() - 1).id() : null;
        return Templates.list(request.chrome(), store, page.items(), next);
    }

    /**
     * One context, with the page of its steps from index {@code from} (the latest page when none is asked: pages
     * start at multiples of the page's size).
     */
    @GET
    @Path("{id}")
    public TemplateInstance context(@PathParam("store") String storeId, @PathParam("id") String id,
            @QueryParam("from") String from, @QueryParam("compacted") String compacted) {
        StoreAccess access = ContextGrants.reading(request, storeId, id);
        String store = access.store();
        ContextOutline outline = contexts.outline(store, id);
        Context estimate = outline.asEstimate();
        memory.blocks(store, id).show(estimate);
        List<ContextChange> changes = new ArrayList<>(contexts.changes(store, id, Set.of(), Long.MAX_VALUE,
                FillChart.MOST_CHANGES).items());
        java.util.Collections.reverse(changes);
        FillCheck fill = estimate.checkFill();
        return Templates.context(request.chrome(), store, outline, fill,
                FillGauge.of(fill, outline.config().thresholds()), ContextSettings.of(outline.config()),
                FillChart.of(changes, outline.config().thresholds()),
                steps(store, outline, from), access.writesEvery(), compacted);
    }

    /**
     * Compacts the context with its strategy, as {@code POST .../compact} does (a summarizing strategy asks its
     * model), then back to its page, which says whether anything was compacted.
     */
    @POST
    @Path("{id}/compact")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response compact(@PathParam("store") String storeId, @PathParam("id") String id,
            @RestForm("csrf") String csrf) {
        request.checkForm(csrf);
        String store = ContextGrants.writing(request, storeId, id).store();
        ContextMemory.Blocks blocks = memory.blocksForChange(store, id);
        ContextCompactions.Compacted done = compactions.compact(store, id, blocks::show, null,
                "/v1/stores/" + store + "/contexts/" + id + "/compact").landed();
        return Response.seeOther(URI.create(ContextGrants.path(store, id, "?compacted=" + done.compacted())))
                .build();
    }

    private StepsPage steps(String store, ContextOutline outline, String from) {
        int size = config.console().pageSize();
        int count = outline.steps();
        int latest = count == 0 ? 0 : (count - 1) / size * size;
        int start = from == null || from.isEmpty() ? latest
                : (int) Math.min(Params.number(from, "from", 0, ContextRules.MAX_STEPS, 0), latest);
        List<Step> read = contexts.steps(store, outline.id(), start, size);
        List<StepView> shown = new ArrayList<>(read.size());
        for (int i = 0; i < read.size(); i++) {
            shown.add(StepView.of(start + i, read.get(i), outline.compactedThroughIndex()));
        }
        return new StepsPage(shown, start + 1, start + shown.size(), count, start > 0 ? Math.max(0, start - size)
                : null, start + size < count ? start + size : null, start < latest ? latest : null);
    }
}
