package dev.engram.access.rest;

import static dev.engram.access.rest.AuthorizationRoutes.route;

import dev.engram.access.rest.AuthorizationRoutes.Route;
import java.util.List;

/**
 * The console's contexts and keys pages in the authorization matrix ({@link AuthorizationRoutes}): a GET without a
 * session is sent to the sign-in page (303), a form without one is refused (401); a signed-in caller gets what its
 * key may. Contexts take, as on the API, read (a form: write) on every scope of the store; the keys are the
 * operator's alone (403 for any other key, whatever its stores).
 */
final class ConsoleRoutesContexts {

    private ConsoleRoutesContexts() {
    }

    /** A store's contexts pages; the matrix seeds context c-1 (a cached output) and c-m (a memory block). */
    static final String C = "/console/stores/{s}/contexts";

    /** The seeded cached output's short hash. */
    private static final String HASH = dev.engram.contexts.cache.ToolResultCache.contentHash("read_file",
            "SECRET-file").substring(0, 4);

    /** Statuses by caller:                      none bad revoked other read-only limited admin */
    static final List<Route> ROUTES = List.of(
            route("console: contexts", "GET", C, null, "303 303 303 404 200 403 200"),
            route("console: a context", "GET", C + "/c-1", null, "303 303 303 404 200 403 200"),
            route("console: a context's first steps", "GET", C + "/c-1?from=0", null, "303 303 303 404 200 403 200"),
            route("console: a context with memory", "GET", C + "/c-m", null, "303 303 303 404 200 403 200"),
            route("console: no such context", "GET", C + "/nobody", null, "303 303 303 404 404 403 404"),
            route("console: a context's prompt", "GET", C + "/c-1/prompt", null, "303 303 303 404 200 403 200"),
            route("console: a context's prompt for anthropic", "GET", C + "/c-1/prompt?format=anthropic", null,
                    "303 303 303 404 200 403 200"),
            route("console: a context's prompt for openai-chat", "GET", C + "/c-1/prompt?format=openai-chat", null,
                    "303 303 303 404 200 403 200"),
            route("console: a context's prompt with memory", "GET", C + "/c-m/prompt", null,
                    "303 303 303 404 200 403 200"),
            route("console: a context's compactions", "GET", C + "/c-1/compactions", null,
                    "303 303 303 404 200 403 200"),
            route("console: a context's tool-result cache", "GET", C + "/c-1/tool-results", null,
                    "303 303 303 404 200 403 200"),
            route("console: a cached tool result", "GET", C + "/c-1/tool-results/" + HASH, null,
                    "303 303 303 404 200 403 200"),
            route("console: compact a context", "POST", C + "/c-1/compact", AuthorizationRoutes.FORM,
                    "401 401 401 404 403 403 303"),
            route("console: keys", "GET", "/console/keys", null, "303 303 303 403 403 403 200"),
            route("console: issue a key", "POST", "/console/keys", AuthorizationRoutes.FORM
                    + "name=made&stores=acme-*&role=read", "401 401 401 403 403 403 201"),
            route("console: issue a key with a bad grant", "POST", "/console/keys", AuthorizationRoutes.FORM
                    + "name=made&stores=Not A Store&role=read", "401 401 401 403 403 403 422"),
            route("console: revoke a key", "POST", "/console/keys/key_no-such-key-here/revoke",
                    AuthorizationRoutes.FORM, "401 401 401 403 403 403 303"));
}
