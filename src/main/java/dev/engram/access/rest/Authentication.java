package dev.engram.access.rest;

import dev.engram.access.Caller;
import dev.engram.access.Denied;
import dev.engram.problems.ErrorEnvelope;
import dev.engram.problems.Problem;
import dev.engram.kernel.Limited;
import dev.engram.problems.Problems;
import dev.engram.ops.EngramConfig;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The one door every request passes before a route is chosen: {@code Authorization: Bearer <token>} names the
 * caller, which the resources and MCP then read through {@link Gate}. {@code /q/health} and the OAuth discovery
 * documents ({@link OAuthDiscovery}) are open; the rest of {@code /q} (metrics, OpenAPI, Swagger UI) answers only the operator unless {@code engram.auth.open-ops-endpoints};
 * everything else ({@code /v1}, {@code /mcp} with its legacy SSE transport, and any other path) needs a valid
 * token. A missing or bad token gets a 401 problem with {@code WWW-Authenticate: Bearer}. The Memory Stores API
 * ({@link ErrorEnvelope#PATH}), whose clients are Anthropic's SDKs, also takes the key as {@code x-api-key}; two
 * different keys in both headers are refused (400).
 */
@ApplicationScoped
public class Authentication {

    public static final String CALLER = "dev.engram.caller";
    static final String TOKEN = "dev.engram.token";

    private static final Logger LOG = Logger.getLogger(Authentication.class);
    private static final String BEARER = "bearer ";
    /** The header Anthropic's API takes a key in, which the Memory Stores API ({@link ErrorEnvelope#PATH}) takes too. */
    static final String API_KEY = "x-api-key";

    /** Who may pass a door. */
    enum Door {
        OPEN, OPERATOR, CALLER, CONSOLE
    }

    @Inject
    Tokens tokens;

    @Inject
    EngramConfig config;

    @Inject
    RateLimits rates;

    @Inject
    ConsoleDoor console;

    @ConfigProperty(name = "quarkus.http.non-application-root-path", defaultValue = "q")
    String opsRoot;

    /** The ops endpoints' root ({@code /q}), worked out once: a regex per request was a measurable part of a read. */
    private String ops;
    private String opsHealth;

    void install(@Observes Router router) {
        ops = "/" + opsRoot.replaceAll("^/+|/+$", "");
        opsHealth = ops + "/health";
        router.route().order(Integer.MIN_VALUE + 1).handler(this::handle);
    }

    /** Which door {@code path} (normalised: no dot segments, no doubled slashes) is behind. */
    Door door(String path) {
        if (PathRoots.atOrUnder(path, opsHealth)) {
            return Door.OPEN;
        }
        if (OAuthDiscovery.asks(path)) {
            return Door.OPEN;
        }
        if (PathRoots.atOrUnder(path, ops)) {
            return config.auth().openOpsEndpoints() ? Door.OPEN : Door.OPERATOR;
        }
        if (ConsoleDoor.covers(path)) {
            return ConsoleDoor.open(path) ? Door.OPEN : Door.CONSOLE;
        }
        return Door.CALLER;
    }

    private void handle(RoutingContext ctx) {
        Door door = preflight(ctx) ? Door.OPEN : door(ctx.normalizedPath());
        if (door == Door.OPEN) {
            ctx.next();
            return;
        }
        if (door == Door.CONSOLE) {
            enterConsole(ctx);
            return;
        }
        String bearer = bearer(ctx.request().getHeader(HttpHeaders.AUTHORIZATION));
        String apiKey = null;
        if (ErrorEnvelope.covers(ctx.normalizedPath())) {
            apiKey = apiKey(ctx.request().getHeader(API_KEY));
            if (bearer != null && apiKey != null && !bearer.equals(apiKey)) {
                refuse(ctx, Problem.of("malformed", 400, "Conflicting credentials", "The request carries two "
                        + "different keys, one in Authorization: Bearer and one in x-api-key; send one of them.")
                        .with("rule", "credentials-conflict").with("field", API_KEY));
                return;
            }
        }
        String token = bearer == null ? apiKey : bearer;
        if (token == null) {
            refuse(ctx, Problem.of("unauthorized", 401, "Unauthorized", "This request carries no token. Send an "
                    + "API key or a token from your identity provider as Authorization: Bearer <token>.")
                    .header("WWW-Authenticate", "Bearer"));
            return;
        }
        Optional<Caller> known = tokens.known(token);
        if (known.isPresent()) {
            admit(ctx, door, token, known.get());
            return;
        }
        if (!tokens.worthLookingUp(token)) {
            refuse(ctx, invalid());
            return;
        }
        ctx.vertx().executeBlocking(() -> tokens.resolve(token), false).onComplete(found -> {
            if (found.failed()) {
                LOG.debugf(found.cause(), "Could not look up a key");
                refuse(ctx, Problem.of("unavailable", 503, "Database unavailable", "Engram cannot reach its "
                        + "database to check the key right now. Retry after the number of seconds in Retry-After.")
                        .header("Retry-After", "2"));
            } else if (found.result().isPresent()) {
                admit(ctx, door, token, found.result().get());
            } else {
                refuse(ctx, invalid());
            }
        });
    }

    /**
     * A console page: the caller is the session's its cookie names; without one a page to read is sent to the sign-in
     * page (303), and anything else is refused (401).
     */
    private void enterConsole(RoutingContext ctx) {
        String token = ConsoleDoor.token(ctx);
        if (token == null) {
            notSignedIn(ctx);
            return;
        }
        ctx.vertx().executeBlocking(() -> console.signedIn(token), false).onComplete(found -> {
            if (found.failed()) {
                LOG.debugf(found.cause(), "Could not look up a console session");
                refuse(ctx, Problem.of("unavailable", 503, "Database unavailable", "Engram cannot reach its "
                        + "database to check the session right now. Retry after the number of seconds in "
                        + "Retry-After.").header("Retry-After", "2"));
            } else if (found.result().isPresent()) {
                ctx.put(ConsoleDoor.SESSION, found.result().get().session());
                admit(ctx, Door.CONSOLE, null, found.result().get().caller());
            } else {
                notSignedIn(ctx);
            }
        });
    }

    private static void notSignedIn(RoutingContext ctx) {
        HttpMethod m = ctx.request().method();
        if (m == HttpMethod.GET || m == HttpMethod.HEAD) {
            ctx.response().setStatusCode(303).putHeader(HttpHeaders.LOCATION, ConsoleDoor.SIGN_IN).end();
            return;
        }
        refuse(ctx, Problem.of("unauthorized", 401, "Not signed in", "This console session has ended or never "
                + "began. Sign in again with an Engram key at " + ConsoleDoor.SIGN_IN + "."));
    }

    /**
     * A CORS preflight: a browser sends it without credentials before a cross-origin request, and it changes
     * nothing; it passes so that CORS (off unless {@code quarkus.http.cors} is configured) can answer it. The request
     * that follows it carries its token like any other.
     */
    static boolean preflight(RoutingContext ctx) {
        return ctx.request().method() == HttpMethod.OPTIONS && ctx.request().getHeader(HttpHeaders.ORIGIN) != null
                && ctx.request().getHeader(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD) != null;
    }

    private void admit(RoutingContext ctx, Door door, String token, Caller caller) {
        if (door == Door.OPERATOR && !caller.isOperator()) {
            try {
                caller.checkOperator("This endpoint");
            } catch (Denied d) {
                refuse(ctx, Problems.forbidden(d));
                return;
            }
        }
        try {
            rates.check(caller);
        } catch (Limited l) {
            refuse(ctx, Problems.limited(l));
            return;
        }
        ctx.put(CALLER, caller);
        if (token != null) {
            ctx.put(TOKEN, token);
        }
        ctx.next();
    }

    private static Problem invalid() {
        return Problem.of("unauthorized", 401, "Unauthorized", "The token is not a live API key or a valid token "
                + "from the identity provider: it may be mistyped, revoked or expired.")
                .header("WWW-Authenticate", "Bearer error=\"invalid_token\"");
    }

    /** The token of an {@code Authorization: Bearer} header, or null for none, another scheme or an empty one. */
    static String bearer(String header) {
        if (header == null || header.length() <= BEARER.length()
                || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        String token = header.substring(BEARER.length()).trim();
        return token.isEmpty() ? null : token;
    }

    /** The key of an {@code x-api-key} header, or null for none or an empty one. */
    static String apiKey(String header) {
        String key = header == null ? "" : header.trim();
        return key.isEmpty() ? null : key;
    }

    private static void refuse(RoutingContext ctx, Problem p) {
        if (!ctx.response().ended()) {
            p.send(ctx);
        }
    }
}
