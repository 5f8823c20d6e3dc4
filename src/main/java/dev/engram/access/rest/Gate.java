package dev.engram.access.rest;

import dev.engram.access.Caller;
import dev.engram.access.StoreAccess;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.function.BooleanSupplier;

/**
 * The current request's caller, as {@link Authentication} found it, for resources and MCP to check what it may do:
 * {@code gate.in(store).checkWrite(scope)}. With no caller on the request (a route {@link Authentication} did not
 * guard) every check fails closed.
 */
@ApplicationScoped
public class Gate {

    @Inject
    CurrentVertxRequest current;

    @Inject
    Tokens tokens;

    @Inject
    StoreQuota quota;

    @Inject
    ConsoleDoor console;

    /** The caller of the current request. */
    public Caller caller() {
        RoutingContext ctx = current.getCurrent();
        Caller caller = ctx == null ? null : ctx.get(Authentication.CALLER);
        if (caller == null) {
            throw new IllegalStateException("No caller on this request: it did not pass Authentication.");
        }
        return caller;
    }

    /** What the current caller may do in {@code store}. */
    public StoreAccess in(String store) {
        return caller().in(store);
    }

    /**
     * Before a write that creates {@code store} if it does not exist: refuses ({@link dev.engram.kernel.Limited})
     * when the caller already created its most stores. Call it after the grant check.
     */
    public void mayCreate(String store) {
        quota.claim(caller(), store);
    }

    /** Before reading {@code store}'s memories, banks or mental models, which have no scope: read on every scope. */
    public void checkReadsMemories(String store) {
        in(store).checkReadsEvery();
    }

    /**
     * Before changing {@code store}'s memories, banks or mental models: write on every scope, and room in the
     * caller's quota of stores when the change creates the store.
     */
    public void checkChangesMemories(String store) {
        in(store).checkWritesEvery();
        mayCreate(store);
    }

    /**
     * Whether the current request's token still reads every scope of {@code store}, asked again later (a live
     * journal follower asks before each batch): false once the key is revoked, the token expired or the grant gone.
     * Blocks.
     */
    public BooleanSupplier stillReadsEvery(String store) {
        String token = current.getCurrent().get(Authentication.TOKEN);
        if (token == null) {
            // A console page: the session's caller as it is now (its key revoked, or the session closed, is false).
            String session = ConsoleDoor.token(current.getCurrent());
            return () -> session != null && console.signedIn(session).map(s -> s.caller().in(store))
                    .map(a -> a.reaches() && a.readsEvery()).orElse(false);
        }
        return () -> tokens.resolve(token).map(c -> c.in(store)).map(a -> a.reaches() && a.readsEvery())
                .orElse(false);
    }
}
