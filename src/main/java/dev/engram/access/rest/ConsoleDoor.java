package dev.engram.access.rest;

import com.github.benmanes.caffeine.cache.Cache;
import dev.engram.access.ApiKeys;
import dev.engram.access.Caller;
import dev.engram.access.ConsoleSessions;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The console's door (docs/console.md): the console's pages are reached with a session cookie rather than a bearer
 * token. The cookie holds a random token; the session it names is the key it was opened with, looked up as a bearer
 * key is (so a revoked key is refused on the console as on the API), or the caller a JWT named, until the token's
 * expiry. A session found is kept for at most a second, as a key is, so closing one on another replica takes effect
 * within that time.
 */
@ApplicationScoped
public class ConsoleDoor {

    /** The console's root. */
    public static final String ROOT = "/console";
    /** The session cookie: HttpOnly, SameSite=Strict, the console's path only. */
    public static final String COOKIE = "engram_console";
    /** Where a request without a session is sent. */
    public static final String SIGN_IN = ROOT + "/sign-in";
    /** The session of the current console request, on its routing context. */
    public static final String SESSION = "dev.engram.console.session";

    private static final Duration KEPT = Duration.ofSeconds(1);

    @Inject
    ConsoleSessions sessions;

    @Inject
    Tokens tokens;

    private final Cache<String, ConsoleSessions.Session> known = Caches.keptByTheirCallers().expireAfterWrite(KEPT)
            .maximumSize(10_000).build();

    /** Whether {@code path} is the console's; the sign-in page and the assets are open to anyone. */
    static boolean covers(String path) {
        return path.equals(ROOT) || path.startsWith(ROOT + "/");
    }

    /** Whether {@code path} of the console is open: the sign-in page, the assets. */
    static boolean open(String path) {
        return path.equals(SIGN_IN) || path.startsWith(ROOT + "/assets/");
    }

    /** The session token the request's cookie carries, or null. */
    static String token(RoutingContext ctx) {
        Cookie c = ctx.request().getCookie(COOKIE);
        return c == null || c.getValue().isEmpty() ? null : c.getValue();
    }

    /** The session of {@code token} and its caller as they are now, or empty. Blocks. */
    Optional<Signed> signedIn(String token) {
        String id = ApiKeys.hash(token);
        ConsoleSessions.Session s = known.getIfPresent(id);
        if (s == null || !s.expires().isAfter(Instant.now())) {
            Optional<ConsoleSessions.Session> found = sessions.find(token);
            if (found.isEmpty()) {
                known.invalidate(id);
                return Optional.empty();
            }
            s = found.get();
            known.put(id, s);
        }
        ConsoleSessions.Session session = s;
        Optional<Caller> caller = s.keyHash().isPresent() ? tokens.resolveByHash(s.keyHash().get())
                : Optional.of(s.jwtCaller());
        return caller.map(c -> new Signed(session, c));
    }

    /** Forgets {@code token}'s session on this replica at once (a sign-out). */
    public void forget(String token) {
        known.invalidate(ApiKeys.hash(token));
    }

    /** The cookie that holds {@code token} until {@code expires}; secure when the request came over TLS. */
    public static Cookie cookie(String token, Instant expires, boolean secure) {
        long age = Math.max(0, Duration.between(Instant.now(), expires).getSeconds());
        return Cookie.cookie(COOKIE, token).setPath(ROOT).setHttpOnly(true).setSameSite(CookieSameSite.STRICT)
                .setSecure(secure).setMaxAge(age);
    }

    /** The cookie that ends the session in the browser. */
    public static Cookie cleared(boolean secure) {
        return Cookie.cookie(COOKIE, "").setPath(ROOT).setHttpOnly(true).setSameSite(CookieSameSite.STRICT)
                .setSecure(secure).setMaxAge(0);
    }

    /** A session found, and the caller it is now. */
    record Signed(ConsoleSessions.Session session, Caller caller) {
    }
}
