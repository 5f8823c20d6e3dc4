package dev.engram.console;

import static io.restassured.RestAssured.given;

import dev.engram.TestAuth;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A browser's side of the console over plain HTTP, for the tests that need no real browser: signs in with a key the
 * way the sign-in page does (its form token and the cookie it is checked against), then sends the session cookie,
 * and the session's form token with each form. Sends no {@code Authorization} header: the cookie is the credential.
 */
public final class ConsoleClient {

    static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
    static final Pattern PRE = Pattern.compile("name=\"pre\" value=\"([^\"]+)\"");

    final String session;
    final String csrf;

    private ConsoleClient(String session, String csrf) {
        this.session = session;
        this.csrf = csrf;
    }

    /** Signs in with {@code key}; fails the test if the sign-in is refused. */
    public static ConsoleClient signIn(String key) {
        Response done = trySignIn(key);
        if (done.statusCode() != 303 || done.getCookie("engram_console") == null) {
            throw new AssertionError("sign-in refused: " + done.statusCode() + " " + done.asString());
        }
        String session = done.getCookie("engram_console");
        String page = given().filter(TestAuth.NO_TOKEN).cookie("engram_console", session).redirects().follow(false)
                .get("/console/stores").asString();
        return new ConsoleClient(session, match(CSRF, page));
    }

    /** The sign-in form's answer to {@code key}, unfollowed. */
    public static Response trySignIn(String key) {
        Response form = given().filter(TestAuth.NO_TOKEN).get("/console/sign-in");
        String pre = match(PRE, form.asString());
        return given().filter(TestAuth.NO_TOKEN).redirects().follow(false).cookie("engram_console_pre",
                form.getCookie("engram_console_pre")).formParam("pre", pre).formParam("token", key)
                .post("/console/sign-in");
    }

    /** A request of this session, redirects not followed. */
    public RequestSpecification request() {
        return given().filter(TestAuth.NO_TOKEN).cookie("engram_console", session).redirects().follow(false);
    }

    /** A form of this session: its token added to {@code fields} (name, value, name, value...). */
    public Response post(String path, String... fields) {
        RequestSpecification r = request().formParam("csrf", csrf);
        for (int i = 0; i < fields.length; i += 2) {
            r = r.formParam(fields[i], fields[i + 1]);
        }
        return r.post(path);
    }

    /** The session's form token. */
    public String csrf() {
        return csrf;
    }

    public Response get(String path) {
        return request().get(path);
    }

    static String match(Pattern p, String html) {
        Matcher m = p.matcher(html);
        if (!m.find()) {
            throw new AssertionError("no " + p + " in the page: " + html);
        }
        return m.group(1);
    }
}
