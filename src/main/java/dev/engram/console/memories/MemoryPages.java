package dev.engram.console.memories;

import dev.engram.access.rest.ConsoleDoor;
import dev.engram.access.rest.Gate;
import dev.engram.console.Chrome;
import dev.engram.console.ConsoleRequest;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Paged;
import dev.engram.memories.BankSummary;
import dev.engram.memories.Memory;
import dev.engram.memories.MemoryFilter;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.Recall;
import dev.engram.memories.Recalls;
import dev.engram.ops.EngramConfig;
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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import org.jboss.resteasy.reactive.RestForm;

/**
 * A store's memories: its first banks counted, and its memories filtered by bank, type, tag, archived and stale, a
 * page at a time; one memory, with the forms that archive, unarchive and supersede it. Reading takes what reading the
 * API's memories takes (read on every scope), changing what changing them takes (write on every scope).
 */
@Path(ConsoleDoor.ROOT + "/stores/{store}/memories")
@Produces(MediaType.TEXT_HTML)
public class MemoryPages {

    /** The most banks the memories page lists; the banks page lists them all, a page at a time. */
    static final int BANKS_SHOWN = 10;
    /** The most characters of a reason, as the API takes. */

    @CheckedTemplate(basePath = "console/memories", requireTypeSafeExpressions = false)
    static class Templates {
        static native TemplateInstance memories(Chrome chrome, String store, ListFilter filter, boolean byImportance,
                List<BankSummary> banks, boolean moreBanks, List<MemoryView> memories, String next);

        static native TemplateInstance memory(Chrome chrome, String store, MemoryView view, boolean writes,
                String changed, String error);
    }

    @Inject
    Recalls recalls;

    @Inject
    Gate gate;

    @Inject
    ConsoleRequest request;

    @Inject
    EngramConfig config;

    /** The first banks and a page of the memories the filters admit, after {@code after}. */
    @GET
    public TemplateInstance list(@PathParam("store") String storeId, @QueryParam("bank") String bank,
            @QueryParam("type") String type, @QueryParam("tag") String tag, @QueryParam("archived") String archived,
            @QueryParam("stale") String stale, @QueryParam("after") String after) {
        String store = MemoryGrants.reading(gate, storeId);
        ListFilter form = new ListFilter(bank, type, tag, archived, stale);
        MemoryFilter filter = form.toFilter();
        MemoryFilter.After from = after == null || after.isEmpty() ? null : MemoryFilter.After.parse(after);
        Recall recall = recalls.in(store);
        Paged<Memory> page = recall.page(filter, from, config.console().pageSize(), config.limits().pageBytes());
        List<BankSummary> banks = recall.banks("", BANKS_SHOWN + 1);
        String next = page.more() ? MemoryFilter.After.of(page.items().get(page.items().size() - 1)).token() : null;
        return Templates.memories(request.chrome(), store, form, filter.byImportance(),
                banks.subList(0, Math.min(BANKS_SHOWN, banks.size())), banks.size() > BANKS_SHOWN,
                page.items().stream().map(MemoryView::listed).toList(), next);
    }

    /** One memory; {@code changed} names the change just made (archived, unarchived, superseded). */
    @GET
    @Path("{id}")
    public TemplateInstance memory(@PathParam("store") String storeId, @PathParam("id") String id,
            @QueryParam("changed") String changed) {
        String store = MemoryGrants.reading(gate, storeId);
        Memory m = recalls.in(store).get(id(id));
        return Templates.memory(request.chrome(), store, MemoryView.of(m), MemoryGrants.changes(gate, store), changed, null);
    }

    /** Archives the memory with {@code reason}: 303 to it. */
    @POST
    @Path("{id}/archive")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response archive(@PathParam("store") String storeId, @PathParam("id") String id,
            @RestForm("reason") String reason, @RestForm("csrf") String csrf) {
        request.checkForm(csrf);
        String store = MemoryGrants.changing(gate, storeId);
        return change(store, id(id), "archived", () -> recalls.in(store).archive(id,
                MemoryRules.shortText(reason == null ? "" : reason.strip(), "reason")));
    }

    /** Clears the memory's archiving: 303 to it. */
    @POST
    @Path("{id}/unarchive")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response unarchive(@PathParam("store") String storeId, @PathParam("id") String id,
            @RestForm("csrf") String csrf) {
        request.checkForm(csrf);
        String store = MemoryGrants.changing(gate, storeId);
        return change(store, id(id), "unarchived", () -> recalls.in(store).unarchive(id));
    }

    /**
     * Marks the memory superseded by the memory {@code by} (empty: by nothing named): 303 to it; a {@code by} the
     * store does not hold, the memory's page again with why (422).
     */
    @POST
    @Path("{id}/supersede")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response supersede(@PathParam("store") String storeId, @PathParam("id") String id,
            @RestForm("by") String by, @RestForm("csrf") String csrf) {
        request.checkForm(csrf);
        String store = MemoryGrants.changing(gate, storeId);
        String successor = by == null ? "" : by.strip();
        return change(store, id(id), "superseded", () -> {
            if (!successor.isEmpty()) {
                MemoryRules.checkId(successor, "by");
            }
            return recalls.in(store).supersede(id, successor);
        });
    }

    /** Makes a change of the memory {@code id}: 303 to its page, or its page with why the change was refused. */
    private Response change(String store, String id, String changed, Supplier<Memory> how) {
        try {
            how.get();
        } catch (Invalid refused) {
            Memory m = recalls.in(store).get(id);
            return Response.status(422).entity(Templates.memory(request.chrome(), store, MemoryView.of(m), true, null,
                    refused.getMessage())).build();
        }
        return Response.seeOther(URI.create(path(store, id) + "?changed=" + changed)).build();
    }

    /** The page of memory {@code id} of {@code store}. */
    static String path(String store, String id) {
        return ConsoleDoor.ROOT + "/stores/" + store + "/memories/" + URLEncoder.encode(id, StandardCharsets.UTF_8);
    }




    private static String id(String id) {
        MemoryRules.checkId(id, "id");
        return id;
    }

}
