package dev.engram.access.rest;

import static dev.engram.access.rest.AuthorizationRoutes.route;

import dev.engram.access.rest.AuthorizationRoutes.Route;
import java.util.List;

/**
 * The console's entries pages in the authorization matrix ({@link AuthorizationRoutes}): a GET without a session is sent to
 * the sign-in page (303), a form without one is refused (401); a signed-in caller gets what its key may.
 */
final class ConsoleRoutesEntries {

    private ConsoleRoutesEntries() {
    }

    /** A store's console pages. */
    static final String C = "/console/stores/{s}";

    /** Statuses by caller:                      none bad revoked other read-only limited admin */
    static final List<Route> ROUTES = List.of(
            route("console: stores", "GET", "/console/stores", null, "303 303 303 200 200 200 200"),
            route("console: a store", "GET", C, null, "303 303 303 404 200 200 200"),
            route("console: scope user", "GET", C + "/scopes/user", null, "303 303 303 404 200 200 200"),
            route("console: scope project", "GET", C + "/scopes/project", null, "303 303 303 404 200 403 200"),
            route("console: user entry", "GET", C + "/scopes/user/entries/style", null,
                    "303 303 303 404 200 200 200"),
            route("console: project entry", "GET", C + "/scopes/project/entries/build", null,
                    "303 303 303 404 200 403 200"),
            route("console: create a user entry", "POST", C + "/scopes/user/entries",
                    AuthorizationRoutes.FORM + "name=fresh&content=new", "401 401 401 404 403 303 303"),
            route("console: create a project entry", "POST", C + "/scopes/project/entries",
                    AuthorizationRoutes.FORM + "name=fresh&content=new", "401 401 401 404 403 403 303"),
            // An edit or a forget on a version the entry never had: refused as a conflict by whoever may write.
            route("console: edit on a stale version", "POST", C + "/scopes/user/entries/style",
                    AuthorizationRoutes.FORM + "content=new&version=v:stale", "401 401 401 404 403 409 409"),
            route("console: forget on a stale version", "POST", C + "/scopes/user/entries/style/forget",
                    AuthorizationRoutes.FORM + "version=v:stale", "401 401 401 404 403 409 409"),
            route("console: erase", "POST", C + "/scopes/user/entries/style/erase",
                    AuthorizationRoutes.FORM + "reason=asked", "401 401 401 404 403 403 303"),
            route("console: sign out", "POST", "/console/sign-out", AuthorizationRoutes.FORM,
                    "401 401 401 303 303 303 303"));
}
