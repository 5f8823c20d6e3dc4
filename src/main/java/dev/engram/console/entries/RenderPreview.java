package dev.engram.console.entries;

import dev.engram.access.StoreAccess;
import dev.engram.access.rest.ConsoleDoor;
import dev.engram.console.Chrome;
import dev.engram.console.ConsoleRequest;
import dev.engram.entries.Stores;
import dev.engram.entries.render.ManifestEntry;
import dev.engram.entries.render.RenderCache;
import dev.engram.entries.rest.RenderRequests;
import dev.engram.kernel.Budget;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Scope;
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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The render preview: the block a product would put in its instructions, read as {@code GET /v1/stores/{s}/render}
 * reads it ({@link RenderRequests}: the same scopes, bounds, ceiling and kept renders), with what each scope takes of
 * the bound, the entries left out and why, and the manifest. A bound the block cannot meet shows the render's refusal
 * on the page (422), with the form to change it.
 */
@Path(ConsoleDoor.ROOT + "/stores/{store}/render")
@Produces(MediaType.TEXT_HTML)
public class RenderPreview {

    /** The most scopes the form's hint names. */
    static final int HINTED_SCOPES = 30;

    @CheckedTemplate(basePath = "console/entries", requireTypeSafeExpressions = false)
    static class Templates {
        static native TemplateInstance render(Chrome chrome, String store, Asked asked, List<String> readable,
                String error, RenderCache.Made made, BlockBudget budget, List<Omission> omitted,
                List<ManifestEntry> shown, String next, String api);
    }

    /** What the form asked, as its fields show it again. */
    public record Asked(String scopes, String maxTotalBytes, String caps) {
    }

    /** An entry the block left out, and why in words. */
    public record Omission(ManifestEntry entry, String why) {
    }

    @Inject
    RenderRequests requests;

    @Inject
    Stores stores;

    @Inject
    ConsoleRequest request;

    @Inject
    EngramConfig config;

    /**
     * The form and, when the bounds can be met, the block, its budget by scope, its omissions and its manifest (the
     * manifest's lists a page at a time from row {@code from}). {@code scope} and {@code scope_max_bytes} take each
     * value repeated or separated by spaces or commas.
     */
    @GET
    public Response preview(@PathParam("store") String storeId, @QueryParam("scope") List<String> scope,
            @QueryParam("max_total_bytes") String max, @QueryParam("scope_max_bytes") List<String> caps,
            @QueryParam("from") String from) {
        String store = Params.store(storeId);
        StoreAccess access = request.caller().in(store);
        if (!access.reaches()) {
            throw NotFound.store(store);
        }
        List<String> scopes = words(scope);
        List<String> capList = words(caps);
        Asked asked = new Asked(String.join(" ", scopes), max == null ? "" : max.strip(), String.join(" ", capList));
        RenderRequests.Asked ask;
        RenderCache.Made made;
        try {
            ask = requests.asked(store, scopes, max == null ? null : max.strip(), capList);
            made = requests.render(ask);
        } catch (Invalid | Budget refused) {
            return Response.status(422).entity(Templates.render(request.chrome(), store, asked, readable(store,
                    access), refused.getMessage(), null, null, List.of(), List.of(), null, null)).build();
        }
        int n = config.console().pageSize();
        int start = (int) Params.number(from, "from", 0, Integer.MAX_VALUE, 0);
        List<ManifestEntry> shown = page(made.rendered().manifest().entries(), start, n);
        List<ManifestEntry> left = page(made.rendered().manifest().omitted(), start, n);
        boolean more = start + n < Math.max(made.rendered().manifest().entries().size(),
                made.rendered().manifest().omitted().size());
        BlockBudget budget = BlockBudget.of(made.rendered(), ask.options());
        List<Omission> omitted = left.stream().map(e -> new Omission(e, why(e, budget))).toList();
        String query = query(scopes, asked.maxTotalBytes(), capList);
        String next = more ? ConsoleDoor.ROOT + "/stores/" + store + "/render" + query + (query.isEmpty() ? "?" : "&")
                + "from=" + (start + n) : null;
        return Response.ok(Templates.render(request.chrome(), store, asked, readable(store, access), null, made,
                budget, omitted, shown, next, "/v1/stores/" + store + "/render" + query)).build();
    }

    /** The scopes of the store the caller reads, at most {@link #HINTED_SCOPES}, for the form's hint. */
    private List<String> readable(String store, StoreAccess access) {
        return stores.info(store).map(i -> i.entries().keySet().stream().filter(access::mayRead).map(Scope::value)
                .limit(HINTED_SCOPES).toList()).orElse(List.of());
    }

    private static String why(ManifestEntry e, BlockBudget budget) {
        Integer cap = budget.scopes().stream().filter(s -> s.scope().equals(e.scope().value())).findFirst()
                .map(BlockBudget.ScopeShare::cap).orElse(null);
        String reason = "\"" + e.reason() + "\": ";
        if (cap != null) {
            return reason + "it did not fit in what was left of scope " + e.scope() + "'s cap of " + cap
                    + " bytes or of the block's bound of " + budget.bound() + " bytes.";
        }
        return reason + "it did not fit in what was left of the block's bound of " + budget.bound() + " bytes.";
    }

    /** Each value split at spaces and commas, blanks dropped. */
    static List<String> words(List<String> values) {
        List<String> words = new ArrayList<>();
        for (String v : values == null ? List.<String>of() : values) {
            Arrays.stream(v.split("[\\s,]+")).filter(w -> !w.isEmpty()).forEach(words::add);
        }
        return words;
    }

    /** The query string of the same render over the API, or "" when it takes every default. */
    private static String query(List<String> scopes, String max, List<String> caps) {
        List<String> params = new ArrayList<>();
        scopes.forEach(s -> params.add("scope=" + URLEncoder.encode(s, StandardCharsets.UTF_8)));
        if (!max.isEmpty()) {
            params.add("max_total_bytes=" + URLEncoder.encode(max, StandardCharsets.UTF_8));
        }
        caps.forEach(c -> params.add("scope_max_bytes=" + URLEncoder.encode(c, StandardCharsets.UTF_8)
                .replace("%3A", ":")));
        return params.isEmpty() ? "" : "?" + String.join("&", params);
    }

    private static <T> List<T> page(List<T> all, int from, int n) {
        return from >= all.size() ? List.of() : all.subList(from, Math.min(all.size(), from + n));
    }
}
