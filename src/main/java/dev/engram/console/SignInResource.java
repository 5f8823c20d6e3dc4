package dev.engram.console;

import dev.engram.access.ConsoleSessions;
import dev.engram.access.rest.ConsoleDoor;
import dev.engram.access.rest.Tokens;
import dev.engram.ops.EngramConfig;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import org.jboss.resteasy.reactive.RestCookie;
import org.jboss.resteasy.reactive.RestForm;

/**
 * Signing in to the console with an Engram key (or a JWT where one is taken) and out again. The sign-in form carries
 * a token that must match a short-lived cookie of the same browser, so no other site can sign a browser in.
 */
@Path(ConsoleDoor.ROOT)
@Produces(MediaType.TEXT_HTML)
public class SignInResource {

    static final String PRE = "engram_console_pre";

    @CheckedTemplate(basePath = "console", requireTypeSafeExpressions = false)
    static class Templates {
        static native TemplateInstance signIn(String pre, String error);
    }

    @Inject
    Tokens tokens;

    @Inject
    ConsoleSessions sessions;

    @Inject
    ConsoleDoor door;

    @Inject
    ConsoleRequest request;

    @Inject
    EngramConfig config;

    private final SecureRandom random = new SecureRandom();

    /** The console's root: its list of stores. */
    @GET
    public Response root() {
        return Response.seeOther(URI.create(ConsoleDoor.ROOT + "/stores")).build();
    }

    @GET
    @Path("sign-in")
    public Response form() {
        return page(Response.Status.OK, null);
    }

    @POST
    @Path("sign-in")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response signIn(@RestForm("token") String token, @RestForm("pre") String pre,
            @RestCookie(PRE) String preCookie) {
        if (pre == null || preCookie == null || !MessageDigest.isEqual(pre.getBytes(StandardCharsets.UTF_8),
                preCookie.getBytes(StandardCharsets.UTF_8))) {
            return page(Response.Status.FORBIDDEN, "This sign-in form has expired. Sign in again.");
        }
        String t = token == null ? "" : token.trim();
        // The operator key, a live key, or a valid JWT; any other token is refused without a look-up.
        Optional<ConsoleSessions.Opening> opening = t.isEmpty() ? Optional.empty()
                : tokens.opening(t, config.console().sessionTtl());
        if (opening.isEmpty()) {
            return page(Response.Status.UNAUTHORIZED, "That is not a live Engram key or a valid token: it may be "
                    + "mistyped, revoked or expired.");
        }
        ConsoleSessions.Opened opened = sessions.open(opening.get());
        boolean secure = request.secure();
        return Response.seeOther(URI.create(ConsoleDoor.ROOT + "/stores"))
                .header("Set-Cookie", setCookie(ConsoleDoor.cookie(opened.token(), opened.expires(), secure)))
                .header("Set-Cookie", setCookie(pre("", secure).setMaxAge(0)))
                .build();
    }

    @POST
    @Path("sign-out")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response signOut(@RestForm("csrf") String csrf, @RestCookie(ConsoleDoor.COOKIE) String session) {
        request.checkForm(csrf);
        sessions.close(session);
        door.forget(session);
        return Response.seeOther(URI.create(ConsoleDoor.SIGN_IN))
                .header("Set-Cookie", setCookie(ConsoleDoor.cleared(request.secure()))).build();
    }

    /** The sign-in page with a fresh form token, and the cookie it is checked against. */
    private Response page(Response.Status status, String error) {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        String pre = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        return Response.status(status).entity(Templates.signIn(pre, error))
                .header("Set-Cookie", setCookie(pre(pre, request.secure()))).build();
    }

    private static Cookie pre(String value, boolean secure) {
        return Cookie.cookie(PRE, value).setPath(ConsoleDoor.SIGN_IN).setHttpOnly(true)
                .setSameSite(CookieSameSite.STRICT).setSecure(secure).setMaxAge(3600);
    }

    private static String setCookie(Cookie c) {
        return c.encode();
    }
}
