package dev.engram.journal.persistence;

import dev.engram.access.Caller;
import dev.engram.access.rest.Authentication;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * Who makes the journal records a memory's or a context's write appends: the caller the request on this thread was
 * authenticated as (its key ID, {@code jwt:} and the subject, or {@code operator}), as an entry's write passes it
 * itself; "" outside a request (an embedding, a scheduled reflection, a batch that outlived its request).
 */
public final class JournalWriter {

    private static volatile CurrentVertxRequest requests;

    private JournalWriter() {
    }

    /** The caller's ID on this thread's request, "" when there is none. */
    public static String current() {
        ArcContainer arc = Arc.container();
        if (arc == null || !arc.requestContext().isActive()) {
            return "";
        }
        CurrentVertxRequest current = requests;
        if (current == null) {
            current = arc.instance(CurrentVertxRequest.class).get();
            requests = current;
        }
        RoutingContext ctx = current.getCurrent();
        return ctx != null && ctx.get(Authentication.CALLER) instanceof Caller caller ? caller.id() : "";
    }
}
