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

    static final List<Route> ROUTES = List.of();
}
