package dev.engram.access.rest;

import dev.engram.access.ApiKeys;
import dev.engram.access.Grant;
import dev.engram.access.KeyRecord;
import dev.engram.access.Keys;
import dev.engram.kernel.Invalid;
import dev.engram.problems.Problem;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.RestResponse;
import java.net.URI;
import java.time.Instant;
import java.util.List;

/**
 * API keys, for the operator only: issue one with its grants (the secret is in that answer and nowhere else), list
 * the live ones (no secrets, no hashes), revoke one (refused at once here, within a second on every replica).
 */
@Path("/v1/keys")
@Produces(MediaType.APPLICATION_JSON)
public class KeysResource {

    @Inject
    Keys keys;

    @Inject
    Gate gate;

    @Inject
    Tokens tokens;

    /**
     * What issues a key: its name and grants. A {@code null} grant is kept for {@link GrantJson#toGrants}, whose
     * refusal ({@code grant-missing}) says what a grant looks like, rather than the REST mapper's generic one.
     */
    public record IssueBody(String name,
            @com.fasterxml.jackson.annotation.JsonSetter(contentNulls = com.fasterxml.jackson.annotation.Nulls.SET)
            List<GrantJson> grants) {
    }

    /** A key just issued: {@code key} is its secret, shown this once. */
    public record IssuedJson(String id, String key, String name, List<GrantJson> grants, Instant createdAt) {
    }

    /** A live key, without its secret. */
    public record KeyJson(String id, String name, List<GrantJson> grants, Instant createdAt) {

        static KeyJson of(KeyRecord k) {
            return new KeyJson(k.id(), k.name(), GrantJson.of(k.grants()), k.createdAt());
        }
    }

    /** The live keys, oldest first. */
    public record KeysJson(List<KeyJson> keys) {
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public RestResponse<IssuedJson> issue(IssueBody body) {
        gate.caller().checkOperator("Issuing keys");
        if (body == null) {
            throw new Invalid("body-missing", "", "Send {\"name\": \"support-bot\", \"grants\": [{\"stores\": "
                    + "\"acme-*\", \"role\": \"write\"}]}.");
        }
        KeyRecord.checkName(body.name());
        List<Grant> grants = GrantJson.toGrants(body.grants());
        KeyRecord.checkGrants(grants);
        Keys.IssuedKey issued = keys.issue(body.name(), grants);
        KeyRecord k = issued.key();
        return RestResponse.ResponseBuilder.<IssuedJson>created(URI.create("/v1/keys/" + k.id()))
                .entity(new IssuedJson(k.id(), issued.secret(), k.name(), GrantJson.of(k.grants()), k.createdAt()))
                .build();
    }

    @GET
    public KeysJson list() {
        gate.caller().checkOperator("Listing keys");
        return new KeysJson(keys.list().stream().map(KeyJson::of).toList());
    }

    @DELETE
    @Path("{id}")
    public Response revoke(@PathParam("id") String id) {
        gate.caller().checkOperator("Revoking keys");
        if (!ApiKeys.isId(id) || !keys.revoke(id)) {
            String shown = ApiKeys.isId(id) ? id : "with that id";
            return Problem.of("not-found", 404, "Not found", "No live key " + shown + ". GET /v1/keys lists the live "
                    + "keys; a revoked key stays revoked.").toResponse("/v1/keys/" + (ApiKeys.isId(id) ? id : "..."));
        }
        tokens.forget(id);
        return Response.noContent().build();
    }
}
