package dev.engram.access.rest;

import static dev.engram.access.rest.AuthorizationRoutes.route;

import dev.engram.access.rest.AuthorizationRoutes.Route;
import java.util.List;

/**
 * The console's journal pages in the authorization matrix ({@link AuthorizationRoutes}): a GET without a session is sent to
 * the sign-in page (303), a form without one is refused (401); a signed-in caller gets what its key may.
 */
final class ConsoleRoutesJournal {

    private ConsoleRoutesJournal() {
    }

    /** A store's console pages. */
    static final String C = "/console/stores/{s}";

    /** Statuses by caller:                      none bad revoked other read-only limited admin */
    static final List<Route> ROUTES = List.of(
            // The whole timeline and the lost updates take read on every scope, as the API's journal does.
            route("console: journal", "GET", C + "/journal", null, "303 303 303 404 200 403 200"),
            route("console: journal, older page", "GET", C + "/journal?before=3", null,
                    "303 303 303 404 200 403 200"),
            route("console: journal, newer page", "GET", C + "/journal?after=1", null, "303 303 303 404 200 403 200"),
            route("console: lost updates", "GET", C + "/journal/lost", null, "303 303 303 404 200 403 200"),
            // A scope's records, or one entry's history, take read on that scope only.
            route("console: journal of scope user", "GET", C + "/journal?scope=user", null,
                    "303 303 303 404 200 200 200"),
            route("console: journal of scope project", "GET", C + "/journal?scope=project", null,
                    "303 303 303 404 200 403 200"),
            route("console: history of a user entry", "GET", C + "/journal?scope=user&name=style", null,
                    "303 303 303 404 200 200 200"),
            route("console: history of a read-only scope's entry", "GET", C + "/journal?scope=rules&name=tone", null,
                    "303 303 303 404 200 200 200"),
            route("console: history of a project entry", "GET", C + "/journal?scope=project&name=build", null,
                    "303 303 303 404 200 403 200"),
            // The live stream opens with the session's cookie, as the browser's EventSource sends it.
            new Route("console: journal followed live (SSE)", "GET", C + "/journal/live", null, "text/event-stream",
                    "303 303 303 404 200 403 200"));
}
