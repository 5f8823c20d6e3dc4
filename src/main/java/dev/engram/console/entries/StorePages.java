package dev.engram.console.entries;

import dev.engram.access.Caller;
import dev.engram.access.Grant;
import dev.engram.access.StoreAccess;
import dev.engram.access.rest.ConsoleDoor;
import dev.engram.console.Chrome;
import dev.engram.console.ConsoleRequest;
import dev.engram.entries.StoreInfo;
import dev.engram.entries.StoreSummary;
import dev.engram.entries.Stores;
import dev.engram.kernel.NotFound;
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

/**
 * The stores a caller may see, a page at a time, and one store's overview: its scopes (those the caller reads) with
 * their entries counted, and the ways into its journal, render, memories and contexts.
 */
@Path(ConsoleDoor.ROOT + "/stores")
@Produces(MediaType.TEXT_HTML)
public class StorePages {

    @CheckedTemplate(basePath = "console/entries", requireTypeSafeExpressions = false)
    static class Templates {
        static native TemplateInstance stores(Chrome chrome, List<StoreSummary> stores, String next);

        static native TemplateInstance store(Chrome chrome, StoreInfo store, StoreSummary summary,
                List<ScopeRow> scopes, StoreAccess access);
    }

    /** A scope of a store and its live entries, counted. */
    public record ScopeRow(String scope, int entries) {
    }

    @Inject
    Stores stores;

    @Inject
    ConsoleRequest request;

    @Inject
    EngramConfig config;

    @GET
    public TemplateInstance list(@QueryParam("after") String after) {
        Caller caller = request.caller();
        List<String> patterns = caller.isOperator() ? List.of("*")
                : caller.grants().stream().map(Grant::stores).distinct().toList();
        int n = config.console().pageSize();
        String from = after == null || after.isEmpty() ? "" : Params.store(after);
        List<StoreSummary> page = stores.page(patterns, from, n + 1).stream()
                .filter(s -> caller.in(s.id()).reaches()).toList();
        String next = page.size() > n ? page.get(n - 1).id() : null;
        return Templates.stores(request.chrome(), page.size() > n ? page.subList(0, n) : page, next);
    }

    @GET
    @Path("{store}")
    public TemplateInstance store(@PathParam("store") String storeId) {
        String id = Params.store(storeId);
        StoreAccess access = request.caller().in(id);
        if (!access.reaches()) {
            throw NotFound.store(id);
        }
        StoreInfo info = stores.info(id).orElseThrow(() -> NotFound.store(id));
        List<ScopeRow> scopes = info.entries().entrySet().stream().filter(e -> access.mayRead(e.getKey()))
                .map(e -> new ScopeRow(e.getKey().value(), e.getValue())).toList();
        StoreSummary summary = stores.page(List.of(id), "", 1).stream().findFirst()
                .orElseThrow(() -> NotFound.store(id));
        return Templates.store(request.chrome(), info, summary, scopes, access);
    }
}
