package dev.engram.console;

import static dev.engram.rest.Api.put;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.TestAuth;
import dev.engram.rest.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.Cookie;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The console over HTTP, as a browser would use it without script: the door (no session, a bad key, a revoked
 * key, signing out), the headers every answer carries, the form token and the same-origin rule, and the entry's
 * pages and forms: an edit on the version read lands as the signed-in key's write, an edit on an older version
 * shows both versions and writes nothing, forget and erase. The real browser's tests are in ConsoleBrowserTest.
 */
@QuarkusTest
class ConsoleApiTest {

    static String issue(String name, String grants) {
        Response r = given().contentType("application/json").body("{\"name\": \"" + name + "\", \"grants\": "
                + grants + "}").post("/v1/keys");
        assertEquals(201, r.statusCode(), r.asString());
        return r.path("key");
    }

    static String idOf(String name) {
        List<String> ids = given().get("/v1/keys").jsonPath().getList("keys.findAll { it.name == '" + name
                + "' }.id");
        return ids.get(0);
    }

    static String store(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void aPageWithoutASessionSendsToTheSignInPageAndAFormIsRefused() {
        given().filter(TestAuth.NO_TOKEN).redirects().follow(false).get("/console/stores").then().statusCode(303)
                .header("Location", containsString("/console/sign-in"));
        given().filter(TestAuth.NO_TOKEN).redirects().follow(false).cookie("engram_console", "made-up")
                .get("/console/stores").then().statusCode(303);
        given().filter(TestAuth.NO_TOKEN).formParam("csrf", "x").post("/console/sign-out").then().statusCode(401)
                .contentType(containsString("text/html"));
        // A bearer key does not open the console: its pages take the session cookie only.
        given().redirects().follow(false).get("/console/stores").then().statusCode(303);
    }

    @Test
    void aKeySignsInToASessionThatSeesWhatTheKeyMay() {
        String mine = store("cons");
        String theirs = store("other");
        put(mine, "user", "tone", "{\"content\": \"Short answers.\"}").then().statusCode(201);
        put(theirs, "user", "secret", "{\"content\": \"not yours\"}").then().statusCode(201);
        String key = issue("console-reader", "[{\"stores\": \"cons-*\", \"role\": \"read\"}]");

        Response in = ConsoleClient.trySignIn(key);
        assertEquals(303, in.statusCode());
        Cookie cookie = in.getDetailedCookie("engram_console");
        assertTrue(cookie.isHttpOnly(), "the session cookie is not readable by script");
        assertEquals("/console", cookie.getPath());
        assertEquals("Strict", cookie.getSameSite());

        ConsoleClient c = ConsoleClient.signIn(key);
        String stores = c.get("/console/stores").then().statusCode(200).extract().asString();
        assertTrue(stores.contains(mine), stores);
        assertFalse(stores.contains(theirs), "another tenant's store is not listed");
        c.get("/console/stores/" + mine + "/scopes/user").then().statusCode(200)
                .body(containsString("Short answers."))
                .body(not(containsString("name=\"content\"")));
        c.get("/console/stores/" + theirs).then().statusCode(404).body(not(containsString("not yours")));
        c.get("/console/stores/" + theirs + "/scopes/user/entries/secret").then().statusCode(404)
                .body(not(containsString("not yours")));
    }

    @Test
    void aBadKeyOpensNoSession() {
        Response r = ConsoleClient.trySignIn("eng_" + "x".repeat(43));
        assertEquals(401, r.statusCode());
        assertNull(r.getCookie("engram_console"));
        assertTrue(r.asString().contains("not a live Engram key"), r.asString());
        Response noPre = given().filter(TestAuth.NO_TOKEN).redirects().follow(false)
                .formParam("token", TestAuth.OPERATOR_KEY).post("/console/sign-in");
        assertEquals(403, noPre.statusCode(), "a sign-in form not from this browser's sign-in page is refused");
        assertNull(noPre.getCookie("engram_console"));
    }

    @Test
    void everyAnswerCarriesTheStrictPolicy() {
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        for (Response r : List.of(c.get("/console/stores"), c.get("/console"), c.get("/console/stores/no-such"),
                given().filter(TestAuth.NO_TOKEN).get("/console/sign-in"),
                given().filter(TestAuth.NO_TOKEN).get("/console/assets/console.css"),
                given().filter(TestAuth.NO_TOKEN).redirects().follow(false).get("/console/stores"))) {
            assertEquals(ConsoleEdges.CSP, r.header("Content-Security-Policy"), r.statusCode() + " " + r.asString());
            assertEquals("DENY", r.header("X-Frame-Options"));
            assertEquals("nosniff", r.header("X-Content-Type-Options"));
        }
    }

    @Test
    void aFormWithoutTheSessionsTokenOrFromAnotherSiteChangesNothing() {
        String s = store("cons");
        put(s, "user", "tone", "{\"content\": \"Short answers.\"}").then().statusCode(201);
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String version = given().get(Api.entry(s, "user", "tone")).header("ETag").replace("\"", "");
        String path = "/console/stores/" + s + "/scopes/user/entries/tone";

        c.request().formParam("csrf", "not-the-token").formParam("content", "Long answers.")
                .formParam("version", version).post(path).then().statusCode(403);
        c.request().formParam("content", "Long answers.").formParam("version", version).post(path).then()
                .statusCode(403);
        c.request().header("Origin", "https://evil.example").formParam("csrf", c.csrf)
                .formParam("content", "Long answers.").formParam("version", version).post(path).then()
                .statusCode(403);
        c.request().header("Sec-Fetch-Site", "cross-site").formParam("csrf", c.csrf)
                .formParam("content", "Long answers.").formParam("version", version).post(path).then()
                .statusCode(403);
        given().get(Api.entry(s, "user", "tone")).then().body("content", org.hamcrest.Matchers.equalTo(
                "Short answers."));
        assertEquals(1, given().get("/v1/stores/" + s + "/journal").jsonPath().getList("records").size());
    }

    @Test
    void anEditOnTheVersionReadLandsAsTheSignedInKeysWrite() {
        String s = store("cons");
        put(s, "user", "tone", "{\"content\": \"Short answers.\"}").then().statusCode(201);
        String key = issue("console-writer", "[{\"stores\": \"" + s + "\", \"role\": \"write\"}]");
        ConsoleClient c = ConsoleClient.signIn(key);
        String path = "/console/stores/" + s + "/scopes/user/entries/tone";
        String page = c.get(path).then().statusCode(200).extract().asString();
        String version = ConsoleClient.match(java.util.regex.Pattern.compile(
                "name=\"version\" value=\"([^\"]+)\""), page);

        Response saved = c.post(path, "content", "Short answers, in English.", "meta", "description: Tone",
                "version", version);
        assertEquals(303, saved.statusCode(), saved.asString());
        assertTrue(saved.header("Location").contains(path), saved.header("Location"));
        JsonPath entry = given().get(Api.entry(s, "user", "tone")).jsonPath();
        assertEquals("Short answers, in English.", entry.getString("content"));
        assertEquals("Tone", entry.getString("meta.description"));
        JsonPath journal = given().get("/v1/stores/" + s + "/journal").jsonPath();
        assertEquals(idOf("console-writer"), journal.getString("records[1].by"), "the record names its writer");
        assertEquals("console", journal.getString("records[1].session"));
        assertNotNull(journal.getString("records[0].by"), "the test's own write names the operator");
        assertEquals("operator", journal.getString("records[0].by"));
    }

    @Test
    void anEditOnAnOlderVersionShowsBothVersionsAndWritesNothing() {
        String s = store("cons");
        put(s, "user", "tone", "{\"content\": \"Short answers.\\nIn English.\"}").then().statusCode(201);
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String path = "/console/stores/" + s + "/scopes/user/entries/tone";
        String old = given().get(Api.entry(s, "user", "tone")).header("ETag").replace("\"", "");
        put(s, "user", "tone", "{\"content\": \"Short answers.\\nIn French.\"}").then().statusCode(200);

        Response r = c.post(path, "content", "Short answers.\nIn German.", "meta", "", "version", old);
        assertEquals(409, r.statusCode());
        String html = r.asString();
        assertTrue(html.contains("In German."), "your version");
        assertTrue(html.contains("In French."), "the current version");
        assertTrue(html.contains("class=\"gone\">- In French.") && html.contains("class=\"new\">+ In German."),
                html);
        given().get(Api.entry(s, "user", "tone")).then().body("content", org.hamcrest.Matchers.equalTo(
                "Short answers.\nIn French."));
        assertEquals(2, given().get("/v1/stores/" + s + "/journal").jsonPath().getList("records").size());
    }

    @Test
    void forgetNeedsWriteAndEraseNeedsAdmin() {
        String s = store("cons");
        put(s, "user", "a", "{\"content\": \"one\"}").then().statusCode(201);
        put(s, "user", "b", "{\"content\": \"two\"}").then().statusCode(201);
        String writer = issue("console-forgetter", "[{\"stores\": \"" + s + "\", \"role\": \"write\"}]");
        ConsoleClient w = ConsoleClient.signIn(writer);
        String version = given().get(Api.entry(s, "user", "a")).header("ETag").replace("\"", "");
        assertEquals(303, w.post("/console/stores/" + s + "/scopes/user/entries/a/forget", "version", version)
                .statusCode());
        given().get(Api.entry(s, "user", "a")).then().statusCode(404);
        assertEquals(403, w.post("/console/stores/" + s + "/scopes/user/entries/b/erase", "reason", "x")
                .statusCode());
        ConsoleClient admin = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        assertEquals(303, admin.post("/console/stores/" + s + "/scopes/user/entries/b/erase", "reason",
                "ticket 4").statusCode());
        JsonPath journal = given().get("/v1/stores/" + s + "/journal").jsonPath();
        assertEquals("erasure", journal.getString("records[3].kind"));
        assertEquals("operator", journal.getString("records[3].erasure.by"));
        assertEquals("ticket 4", journal.getString("records[3].erasure.reason"));
    }

    @Test
    void aRevokedKeyOrASignOutEndsTheSession() throws InterruptedException {
        String key = issue("console-revoked", "[{\"stores\": \"cons-*\", \"role\": \"read\"}]");
        ConsoleClient c = ConsoleClient.signIn(key);
        c.get("/console/stores").then().statusCode(200);
        given().delete("/v1/keys/" + idOf("console-revoked")).then().statusCode(204);
        int status = 200;
        for (int i = 0; i < 40 && status == 200; i++) {
            status = c.get("/console/stores").statusCode();
            Thread.sleep(100);
        }
        assertEquals(303, status, "a revoked key's session is refused within the key cache's second");

        ConsoleClient d = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        Response out = d.post("/console/sign-out");
        assertEquals(303, out.statusCode());
        assertEquals("", out.getCookie("engram_console"));
        d.get("/console/stores").then().statusCode(303);
    }

    @Test
    void agentsMarkdownIsShownAsTextNotRunAsHtml() {
        String s = store("cons");
        put(s, "user", "x", "{\"content\": \"<script>alert(1)</script> [a](javascript:alert(2)) "
                + "<img src=x onerror=alert(3)>\", \"meta\": {\"description\": \"<b onmouseover=alert(4)>d</b>\"}}")
                .then().statusCode(201);
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        for (String path : List.of("/console/stores/" + s + "/scopes/user",
                "/console/stores/" + s + "/scopes/user/entries/x")) {
            String html = c.get(path).then().statusCode(200).extract().asString();
            assertFalse(html.contains("<script>alert"), html);
            assertFalse(html.contains("href=\"javascript:"), html);
            assertFalse(html.contains("<img"), html);
            assertFalse(html.contains("<b onmouseover"), html);
            assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), html);
        }
    }
}
