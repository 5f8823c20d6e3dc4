package dev.engram.console;

import dev.engram.access.Caller;
import dev.engram.access.ConsoleSessions;
import dev.engram.access.Denied;
import dev.engram.access.rest.ConsoleDoor;
import dev.engram.access.rest.Gate;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;

/**
 * The console request being served: its caller (the session's, as {@link Gate} reads it), the page chrome, and the
 * check every form of the console passes before it changes anything: the session's form token, sent back.
 */
@ApplicationScoped
public class ConsoleRequest {

    @Inject
    Gate gate;

    @Inject
    CurrentVertxRequest current;

    /** The signed-in caller. */
    public Caller caller() {
        return gate.caller();
    }

    /** The chrome of a page for the current caller. */
    public Chrome chrome() {
        Caller c = caller();
        return new Chrome(c.name(), c.id(), c.isOperator(), session().csrf());
    }

    /**
     * Refuses a form whose token is not the session's (403): a page of another site, or one from a session that has
     * ended, cannot change anything through the console.
     */
    public void checkForm(String csrf) {
        byte[] sent = (csrf == null ? "" : csrf).getBytes(StandardCharsets.UTF_8);
        byte[] expected = session().csrf().getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(sent, expected)) {
            throw new Denied(null, "form token", List.of(), List.of(), "This form does not carry this console "
                    + "session's token: it was sent from another page or an older session. Reload the page and send "
                    + "the form again.");
        }
    }

    /** Whether the request came over TLS, directly or, by its proxy's word, to the proxy. */
    public boolean secure() {
        RoutingContext ctx = current.getCurrent();
        String proto = ctx.request().getHeader("X-Forwarded-Proto");
        return ctx.request().isSSL() || "https".equalsIgnoreCase(proto);
    }

    /** The current request's routing context. */
    public RoutingContext context() {
        return current.getCurrent();
    }

    private ConsoleSessions.Session session() {
        ConsoleSessions.Session s = current.getCurrent().get(ConsoleDoor.SESSION);
        if (s == null) {
            throw new IllegalStateException("No console session on this request: it did not pass the console door.");
        }
        return s;
    }
}
