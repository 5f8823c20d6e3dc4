package dev.engram.access.rest;

import dev.engram.problems.Problem;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;

/**
 * The documents an MCP client reads, without a token, to find out whether a server takes OAuth: the protected
 * resource metadata (RFC 9728) and the authorization server metadata (RFC 8414, OpenID discovery). Engram has no
 * authorization server: it takes API keys and tokens an identity provider issued, sent as
 * {@code Authorization: Bearer}. So these answer 404, open to all, which tells a client (the MCP Inspector, the
 * SDKs) there is no OAuth flow to start; a 401 there made clients take a bad key for a login to offer.
 */
@ApplicationScoped
public class OAuthDiscovery {

    private static final List<String> DOCUMENTS = List.of("/.well-known/oauth-protected-resource",
            "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration");

    /** Whether {@code path} (normalised) is one of the discovery documents, or one under it (RFC 9728 §3.1). */
    static boolean asks(String path) {
        if (!path.startsWith(WELL_KNOWN)) {
            return false; // every request but these pays only this, twice (here and in Authentication)
        }
        for (String d : DOCUMENTS) {
            if (PathRoots.atOrUnder(path, d)) {
                return true;
            }
        }
        return false;
    }

    private static final String WELL_KNOWN = "/.well-known/";

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE + 2).handler(ctx -> {
            if (!asks(ctx.normalizedPath())) {
                ctx.next();
                return;
            }
            Problem.of("no-oauth", 404, "No OAuth here", "This server has no OAuth authorization server. Send an "
                    + "Engram API key, or a token from the identity provider it is configured with, as "
                    + "Authorization: Bearer <token> (docs/security.md).").send(ctx);
        });
    }
}
