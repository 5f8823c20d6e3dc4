package dev.engram.console.entries;

import dev.engram.access.StoreAccess;
import dev.engram.access.rest.ConsoleDoor;
import dev.engram.console.Chrome;
import dev.engram.console.ConsoleRequest;
import dev.engram.console.LineDiff;
import dev.engram.console.MarkdownHtml;
import dev.engram.kernel.Conflict;
import dev.engram.entries.Entry;
import dev.engram.entries.Erasure;
import dev.engram.entries.PutOptions;
import dev.engram.entries.Store;
import dev.engram.entries.Stores;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Paged;
import dev.engram.kernel.Scope;
import dev.engram.kernel.TooLarge;
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
import java.util.List;
import java.util.Optional;
import org.jboss.resteasy.reactive.RestForm;

/**
 * A scope's entries, a page at a time, each rendered from its Markdown; one entry, with the forms that change it:
 * an edit made only on the version it was read at (a conflict shows both versions and what differs), forget, and
 * erase (admin). Every change is the store's own write, made by the signed-in caller in session {@value #SESSION}.
 */
@Path(ConsoleDoor.ROOT + "/stores/{store}/scopes/{scope}")
@Produces(MediaType.TEXT_HTML)
public class EntryPages {

    /** The session the console's writes are recorded under. */
    static final String SESSION = "console";

    @CheckedTemplate(basePath = "console/entries", requireTypeSafeExpressions = false)
    static class Templates {
        static native TemplateInstance scope(Chrome chrome, String store, String scope, List<EntryView> entries,
                String next, boolean writes);

        static native TemplateInstance entry(Chrome chrome, String store, EntryView entry, Draft draft,
                boolean writes, boolean administers, String error, String saved);

        static native TemplateInstance conflict(Chrome chrome, String store, String scope, String name, Draft yours,
                EntryView current, List<LineDiff.Line> diff);
    }

    @Inject
    Stores stores;

    @Inject
    ConsoleRequest request;

    @Inject
    EngramConfig config;

    /** A page of the scope's entries, by name, after {@code after}. */
    @GET
    public TemplateInstance scope(@PathParam("store") String storeId, @PathParam("scope") String scopeValue,
            @QueryParam("after") String after) {
        String store = Params.store(storeId);
        Scope scope = Params.scope(scopeValue);
        StoreAccess access = request.caller().in(store);
        access.checkRead(scope);
        String from = after == null || after.isEmpty() ? "" : Params.name(after);
        Paged<Entry> page = stores.store(store).listPage(scope, from, config.console().pageSize(),
                config.limits().pageBytes());
        List<EntryView> views = page.items().stream().map(EntryView::of).toList();
        String next = page.more() ? views.get(views.size() - 1).name() : null;
        return Templates.scope(request.chrome(), store, scope.value(), views, next, access.mayWrite(scope));
    }

    /** One entry: rendered, its meta and version, and the forms the caller may use. */
    @GET
    @Path("entries/{name}")
    public TemplateInstance entry(@PathParam("store") String storeId, @PathParam("scope") String scopeValue,
            @PathParam("name") String name, @QueryParam("saved") String saved) {
        String store = Params.store(storeId);
        Scope scope = Params.scope(scopeValue);
        StoreAccess access = request.caller().in(store);
        access.checkRead(scope);
        Entry e = stores.store(store).get(scope, Params.name(name));
        return Templates.entry(request.chrome(), store, EntryView.of(e), Draft.of(e), access.mayWrite(scope),
                access.administers(), null, saved);
    }

    /**
     * Writes the entry as edited, on the version it was read at: 303 to the entry; on another version, the conflict
     * page (409) with both versions and the lines that differ; a refused write, the form again with why (422, 413).
     */
    @POST
    @Path("entries/{name}")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response edit(@PathParam("store") String storeId, @PathParam("scope") String scopeValue,
            @PathParam("name") String name, @RestForm("content") String content, @RestForm("meta") String meta,
            @RestForm("version") String version, @RestForm("csrf") String csrf) {
        request.checkForm(csrf);
        String store = Params.store(storeId);
        Scope scope = Params.scope(scopeValue);
        StoreAccess access = request.caller().in(store);
        access.checkWrite(scope);
        Draft draft = new Draft(Params.name(name), content == null ? "" : content, meta == null ? "" : meta,
                version == null ? "" : version);
        return write(store, scope, access, draft, PutOptions.NONE.ifVersion(draft.version()));
    }

    /** Creates an entry that must not exist yet: 303 to it, or the conflict page when it does. */
    @POST
    @Path("entries")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response create(@PathParam("store") String storeId, @PathParam("scope") String scopeValue,
            @RestForm("name") String name, @RestForm("content") String content, @RestForm("meta") String meta,
            @RestForm("csrf") String csrf) {
        request.checkForm(csrf);
        String store = Params.store(storeId);
        Scope scope = Params.scope(scopeValue);
        StoreAccess access = request.caller().in(store);
        access.checkWrite(scope);
        Draft draft = new Draft(Params.name(name == null ? "" : name.trim()), content == null ? "" : content,
                meta == null ? "" : meta, "");
        return write(store, scope, access, draft, PutOptions.NONE.ifVersion(""));
    }

    /** Forgets the entry at the version it was read at: 303 to its scope, or the conflict page. */
    @POST
    @Path("entries/{name}/forget")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response forget(@PathParam("store") String storeId, @PathParam("scope") String scopeValue,
            @PathParam("name") String name, @RestForm("version") String version, @RestForm("csrf") String csrf) {
        request.checkForm(csrf);
        String store = Params.store(storeId);
        Scope scope = Params.scope(scopeValue);
        request.caller().in(store).checkWrite(scope);
        String entry = Params.name(name);
        Store s = stores.store(store);
        try {
            s.forget(scope, entry, options().ifVersion(version == null ? "" : version));
        } catch (Conflict c) {
            Entry current = s.get(scope, entry);
            Draft asked = new Draft(entry, "", "", version == null ? "" : version);
            return Response.status(Response.Status.CONFLICT).entity(Templates.conflict(request.chrome(), store,
                    scope.value(), entry, asked, EntryView.of(current), LineDiff.of("", current.content()))).build();
        }
        return seeOther(scopePath(store, scope));
    }

    /** Erases the entry and the content of its every record (admin): 303 to its scope. */
    @POST
    @Path("entries/{name}/erase")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response erase(@PathParam("store") String storeId, @PathParam("scope") String scopeValue,
            @PathParam("name") String name, @RestForm("reason") String reason, @RestForm("csrf") String csrf) {
        request.checkForm(csrf);
        String store = Params.store(storeId);
        Scope scope = Params.scope(scopeValue);
        request.caller().in(store).checkAdminister();
        stores.store(store).erase(scope, Params.name(name), new Erasure(request.caller().id(),
                reason == null ? "" : reason.strip()));
        return seeOther(scopePath(store, scope));
    }

    private Response write(String store, Scope scope, StoreAccess access, Draft draft, PutOptions precondition) {
        Store s = stores.store(store);
        try {
            Entry e = Entry.draft(scope, draft.name(), draft.content(), draft.parsedMeta());
            long seq = s.put(e, precondition.session(SESSION).by(request.caller().id())).change().seq();
            return seeOther(scopePath(store, scope) + "/entries/" + draft.name() + "?saved=" + seq);
        } catch (Conflict c) {
            Optional<Entry> current = current(s, scope, draft.name());
            EntryView shown = current.map(EntryView::of).orElse(null);
            return Response.status(Response.Status.CONFLICT).entity(Templates.conflict(request.chrome(), store,
                    scope.value(), draft.name(), draft, shown,
                    LineDiff.of(current.map(Entry::content).orElse(""), draft.content()))).build();
        } catch (Invalid | TooLarge refused) {
            int status = refused instanceof TooLarge ? 413 : 422;
            Optional<Entry> current = current(s, scope, draft.name());
            return Response.status(status).entity(Templates.entry(request.chrome(), store,
                    current.map(EntryView::of).orElse(EntryView.absent(scope, draft.name())), draft,
                    access.mayWrite(scope), access.administers(), refused.getMessage(), null)).build();
        }
    }

    private PutOptions options() {
        return PutOptions.NONE.session(SESSION).by(request.caller().id());
    }

    private static Optional<Entry> current(Store s, Scope scope, String name) {
        try {
            return Optional.of(s.get(scope, name));
        } catch (NotFound gone) {
            return Optional.empty();
        }
    }

    private static String scopePath(String store, Scope scope) {
        return ConsoleDoor.ROOT + "/stores/" + store + "/scopes/" + scope.value();
    }

    private static Response seeOther(String path) {
        return Response.seeOther(URI.create(path)).build();
    }
}
