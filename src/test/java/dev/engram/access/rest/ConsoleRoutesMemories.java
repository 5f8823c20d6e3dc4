package dev.engram.access.rest;

import static dev.engram.access.rest.AuthorizationRoutes.route;

import dev.engram.access.rest.AuthorizationRoutes.Route;
import java.util.List;

/**
 * The console's memories pages in the authorization matrix ({@link AuthorizationRoutes}): a GET without a session is sent to
 * the sign-in page (303), a form without one is refused (401); a signed-in caller gets what its key may.
 */
final class ConsoleRoutesMemories {

    private ConsoleRoutesMemories() {
    }

    /** A store's console pages. */
    static final String C = "/console/stores/{s}";

    /** Statuses by caller:                      none bad revoked other read-only limited admin */
    static final List<Route> ROUTES = List.of(
            route("console: render preview", "GET", C + "/render", null, "303 303 303 404 200 200 200"),
            route("console: render preview of user", "GET", C + "/render?scope=user&max_total_bytes=4000"
                    + "&scope_max_bytes=user:100", null, "303 303 303 404 200 200 200"),
            route("console: render preview of project", "GET", C + "/render?scope=project", null,
                    "303 303 303 404 200 403 200"),
            // A bound under what the block always holds: the render's refusal, on the page.
            route("console: render preview, bound too small", "GET", C + "/render?scope=user&max_total_bytes=10",
                    null, "303 303 303 404 422 422 422"),
            route("console: memories", "GET", C + "/memories", null, "303 303 303 404 200 403 200"),
            route("console: memories filtered", "GET", C + "/memories?bank=global&type=fact&archived=no&stale=no",
                    null, "303 303 303 404 200 403 200"),
            route("console: a memory", "GET", C + "/memories/m-1", null, "303 303 303 404 200 403 200"),
            route("console: banks", "GET", C + "/banks", null, "303 303 303 404 200 403 200"),
            route("console: a bank", "GET", C + "/banks/global", null, "303 303 303 404 200 403 200"),
            route("console: recall playground", "GET", C + "/recall?query=secret&ranking=hybrid", null,
                    "303 303 303 404 200 403 200"),
            route("console: archive a memory", "POST", C + "/memories/m-1/archive",
                    AuthorizationRoutes.FORM + "reason=old", "401 401 401 404 403 403 303"),
            route("console: unarchive a memory", "POST", C + "/memories/m-1/unarchive", AuthorizationRoutes.FORM,
                    "401 401 401 404 403 403 303"),
            route("console: supersede a memory", "POST", C + "/memories/m-1/supersede",
                    AuthorizationRoutes.FORM + "by=", "401 401 401 404 403 403 303"),
            route("console: reflect a bank", "POST", C + "/banks/global/reflect",
                    AuthorizationRoutes.FORM + "reflector=deterministic", "401 401 401 404 403 403 303"));
}
