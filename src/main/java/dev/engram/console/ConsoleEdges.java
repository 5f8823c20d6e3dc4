package dev.engram.console;

import dev.engram.problems.Problem;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Locale;

/**
 * What every answer of the console carries, whoever answers it (a page, a redirect, a refusal), and what a browser
 * may send it. Content written by agents is shown on these pages, so they forbid everything a page does not need: no
 * script but the console's own file, no inline script or style, no frame around them, no form sent elsewhere, no
 * plug-in, nothing cached. A write from a page of another origin is refused (403) before anything else reads it:
 * the session cookie is SameSite=Strict already, and every form carries the session's token besides.
 */
@ApplicationScoped
public class ConsoleEdges {

    /** The Content-Security-Policy of every console answer. */
    public static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(ctx -> {
            String path = ctx.normalizedPath();
            if (!path.equals("/console") && !path.startsWith("/console/")) {
                ctx.next();
                return;
            }
            ctx.addHeadersEndHandler(v -> headers(ctx.response()));
            if (ctx.request().method() == HttpMethod.POST && crossSite(ctx.request())) {
                Problem.of("forbidden", 403, "Sent from another site", "The console takes forms only from its own "
                        + "pages. Open the console and send the form from there.").with("rule", "same-origin")
                        .send(ctx);
                return;
            }
            ctx.next();
        });
    }

    private static void headers(HttpServerResponse r) {
        r.putHeader("Content-Security-Policy", CSP);
        r.putHeader("X-Frame-Options", "DENY");
        r.putHeader("X-Content-Type-Options", "nosniff");
        r.putHeader("Referrer-Policy", "same-origin");
        r.putHeader("Cross-Origin-Opener-Policy", "same-origin");
        r.putHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
        if (!r.headers().contains(HttpHeaders.CACHE_CONTROL)) {
            r.putHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        }
        // A page built into a Response (a form's answer with its status) is typed without its charset otherwise.
        if ("text/html".equals(r.headers().get(HttpHeaders.CONTENT_TYPE))) {
            r.putHeader(HttpHeaders.CONTENT_TYPE, "text/html;charset=UTF-8");
        }
    }

    /**
     * Whether a browser says the request comes from another site: {@code Sec-Fetch-Site} cross-site or same-site
     * (every current browser sends it, and it decides), or, without it, an {@code Origin} whose host is not the
     * request's. A request that says neither (curl, an old browser) passes to the form token's check.
     */
    static boolean crossSite(HttpServerRequest request) {
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null) {
            return !site.equalsIgnoreCase("same-origin") && !site.equalsIgnoreCase("none");
        }
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        if (origin == null) {
            return false;
        }
        String host = request.getHeader(HttpHeaders.HOST);
        String bare = origin.toLowerCase(Locale.ROOT).replaceFirst("^[a-z][a-z0-9+.-]*://", "");
        return host == null || !bare.equals(host.toLowerCase(Locale.ROOT));
    }
}
