package dev.engram.console;

import dev.engram.access.ApiKeys;
import dev.engram.access.Grant;
import dev.engram.access.KeyRecord;
import dev.engram.access.Keys;
import dev.engram.access.rest.ConsoleDoor;
import dev.engram.access.rest.Tokens;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Paged;
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
import java.util.List;
import org.jboss.resteasy.reactive.RestForm;

/**
 * The API keys, for the operator only, as the keys API has them: the live keys a page at a time (no secrets: none is
 * kept), a form that issues a key with its grants, answered with the one page that shows its secret (not a redirect:
 * the secret is in no address and kept nowhere, so it cannot be shown again), and revoking a key, at once on this
 * replica and within a second on the others; a session signed in with that key ends with it.
 */
@Path(ConsoleDoor.ROOT + "/keys")
@Produces(MediaType.TEXT_HTML)
public class KeyPages {

    @CheckedTemplate(basePath = "console", requireTypeSafeExpressions = false)
    static class Templates {
        static native TemplateInstance keys(Chrome chrome, List<KeyView> keys, String next, KeyDraft draft,
                String error, String revoked, String gone);

        static native TemplateInstance keysIssued(Chrome chrome, KeyView key, String secret);
    }

    /** A key as the pages show it: its grants in words, one line each. */
    public record KeyView(String id, String name, List<String> grants, java.time.Instant created) {

        static KeyView of(KeyRecord k) {
            return new KeyView(k.id(), k.name(), k.grants().stream().map(KeyView::words).toList(), k.createdAt());
        }

        private static String words(Grant g) {
            String scopes = g.everyScope() ? "every scope" : "scopes " + String.join(", ", g.scopes().stream()
                    .map(s -> s.value()).toList()) + (g.readScopes().isEmpty() ? "" : ", and reads "
                    + String.join(", ", g.readScopes().stream().map(s -> s.value()).toList()));
            return g.role().value() + " on " + g.stores() + ", " + scopes;
        }
    }

    @Inject
    Keys keys;

    @Inject
    Tokens tokens;

    @Inject
    ConsoleRequest request;

    @Inject
    EngramConfig config;

    /** The live keys after key {@code after}, oldest first, and the form that issues one. */
    @GET
    public TemplateInstance list(@QueryParam("after") String after, @QueryParam("revoked") String revoked,
            @QueryParam("gone") String gone) {
        request.caller().checkOperator("The keys page");
        return page(after, KeyDraft.empty(), null, shown(revoked), shown(gone));
    }

    /** Issues a key with the form's grants: the page of its secret (201), or the form again with why (422). */
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response issue(@RestForm("csrf") String csrf, @RestForm("name") String name,
            @RestForm("stores") List<String> stores, @RestForm("role") List<String> roles,
            @RestForm("scopes") List<String> scopes, @RestForm("read_scopes") List<String> readScopes) {
        request.checkForm(csrf);
        request.caller().checkOperator("Issuing keys");
        KeyDraft draft = KeyDraft.of(name, stores, roles, scopes, readScopes);
        Keys.IssuedKey issued;
        try {
            KeyRecord.checkName(draft.name());
            issued = keys.issue(draft.name(), draft.grants());
        } catch (Invalid refused) {
            return Response.status(422).entity(page(null, draft, refused.getMessage(), null, null)).build();
        }
        return Response.status(Response.Status.CREATED).location(URI.create(ConsoleDoor.ROOT + "/keys"))
                .entity(Templates.keysIssued(request.chrome(), KeyView.of(issued.key()), issued.secret())).build();
    }

    /** Revokes key {@code id}, then back to the keys (which say so, or that no live key had that id). */
    @POST
    @Path("{id}/revoke")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response revoke(@PathParam("id") String id, @RestForm("csrf") String csrf) {
        request.checkForm(csrf);
        request.caller().checkOperator("Revoking keys");
        boolean revoked = ApiKeys.isId(id) && keys.revoke(id);
        if (revoked) {
            tokens.forget(id);
        }
        String said = ApiKeys.isId(id) ? id : "";
        return Response.seeOther(URI.create(ConsoleDoor.ROOT + "/keys?" + (revoked ? "revoked=" : "gone=") + said))
                .build();
    }

    private TemplateInstance page(String after, KeyDraft draft, String error, String revoked, String gone) {
        String from = after != null && ApiKeys.isId(after) ? after : "";
        Paged<KeyRecord> page = keys.page(from, config.console().pageSize());
        String next = page.more() ? page.items().get(page.items().size() - 1).id() : null;
        return Templates.keys(request.chrome(), page.items().stream().map(KeyView::of).toList(), next, draft, error,
                revoked, gone);
    }

    /** A key id a redirect names, or null for anything else (nothing else is echoed). */
    private static String shown(String id) {
        return id != null && (id.isEmpty() || ApiKeys.isId(id)) ? id : null;
    }
}
