package dev.engram.console;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.TestAuth;
import dev.engram.access.KeyRecord;
import dev.engram.access.Keys;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The keys pages over HTTP, for the operator only: a key issued with the form works on the API and its secret is
 * shown on that one answer and never again; the list shows no secret and pages; revoking ends the key, and the
 * session signed in with it; anyone else is refused (403) and writes nothing.
 */
@QuarkusTest
class KeysConsoleTest {

    @Inject
    Keys keys;

    static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** The keys form: name, then per row stores, role, scopes, read scopes (three rows, blank ones filled in). */
    static Response issue(ConsoleClient c, String name, String... rows) {
        var r = c.request().contentType("application/x-www-form-urlencoded").formParam("csrf", c.csrf())
                .formParam("name", name);
        for (int i = 0; i < 3; i++) {
            boolean given = i * 4 < rows.length;
            r = r.formParam("stores", given ? rows[i * 4] : "").formParam("role", given ? rows[i * 4 + 1] : "read")
                    .formParam("scopes", given ? rows[i * 4 + 2] : "")
                    .formParam("read_scopes", given ? rows[i * 4 + 3] : "");
        }
        return r.post("/console/keys");
    }

    static String secretOf(String html) {
        return ConsoleClient.match(java.util.regex.Pattern.compile("id=\"secret\"[^>]*value=\"(eng_[^\"]+)\""), html);
    }

    static Map<String, Object> apiKey(String name) {
        List<Map<String, Object>> found = given().get("/v1/keys").jsonPath().getList("keys.findAll { it.name == '"
                + name + "' }");
        return found.isEmpty() ? null : found.get(0);
    }

    @Test
    void aKeyIssuedWithTheFormWorksOnTheApiAndItsSecretIsShownOnce() {
        String store = unique("keyc");
        String name = unique("console-made");
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        Response issued = issue(c, name, store, "write", "", "", "acme-*", "write", "user, notes", "rules");
        assertEquals(201, issued.statusCode(), issued.asString());
        String secret = secretOf(issued.asString());
        assertTrue(issued.asString().contains("only time it is shown"), issued.asString());
        assertEquals("no-store", issued.header("Cache-Control"), "no cache keeps the page of a secret");

        given().header("Authorization", "Bearer " + secret).contentType("application/json")
                .body("{\"content\": \"made with a console key\"}")
                .put("/v1/stores/" + store + "/scopes/user/entries/note").then().statusCode(201);
        Map<String, Object> k = apiKey(name);
        assertEquals(List.of(Map.of("stores", store, "role", "write"), Map.of("stores", "acme-*", "role", "write",
                "scopes", List.of("user", "notes"), "read_scopes", List.of("rules"))), k.get("grants"));

        String list = c.get("/console/keys?after=").then().statusCode(200).extract().asString();
        String all = list + pagesAfter(c, list);
        assertTrue(all.contains((String) k.get("id")), "the new key is listed");
        assertTrue(all.contains("write on acme-*, scopes user, notes, and reads rules"), all);
        assertFalse(all.contains(secret) || all.contains(secret.substring(4, 20)), "no secret is ever listed");
        assertFalse(all.contains("sha256:"), "nor a hash");
    }

    @Test
    void aRefusedGrantComesBackOnTheFormAndIssuesNothing() {
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        int before = keys.list().size();
        String name = unique("console-refused");
        Response bad = issue(c, name, "Not A Store", "read", "", "");
        assertEquals(422, bad.statusCode());
        assertTrue(bad.asString().contains("Not issued: Grant 1:"), bad.asString());
        assertTrue(bad.asString().contains("value=\"Not A Store\""), "the form keeps what was typed");
        Response admin = issue(c, name, "acme-*", "admin", "user", "");
        assertEquals(422, admin.statusCode());
        assertTrue(admin.asString().contains("admin grant covers whole stores"), admin.asString());
        assertEquals(422, issue(c, name).statusCode(), "no grant at all");
        assertEquals(422, issue(c, "", "acme-*", "read", "", "").statusCode(), "no name");
        assertEquals(before, keys.list().size(), "nothing issued");
    }

    @Test
    void revokingEndsTheKeyAndTheSessionsSignedInWithIt() {
        ConsoleClient operator = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String name = unique("console-second-operator");
        String secret = secretOf(issue(operator, name, "*", "admin", "", "").asString());
        String id = (String) apiKey(name).get("id");

        ConsoleClient itself = ConsoleClient.signIn(secret);
        itself.get("/console/keys").then().statusCode(200);
        Response revoked = itself.post("/console/keys/" + id + "/revoke");
        assertEquals(303, revoked.statusCode());
        assertTrue(revoked.header("Location").endsWith("/console/keys?revoked=" + id), revoked.header("Location"));
        assertEquals(null, apiKey(name), "the key is revoked");
        given().header("Authorization", "Bearer " + secret).get("/v1/keys").then()
                .statusCode(401);
        assertEquals(303, itself.get("/console/keys").statusCode(),
                "the session signed in with the revoked key has ended at once on this replica");

        Response again = operator.post("/console/keys/" + id + "/revoke");
        assertEquals(303, again.statusCode());
        assertTrue(again.header("Location").endsWith("?gone=" + id), again.header("Location"));
        assertTrue(operator.get("/console/keys?gone=" + id).asString().contains("No live key"), "said so");
    }

    @Test
    void onlyTheOperatorReachesTheKeysAndARefusalWritesNothing() {
        ConsoleClient operator = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String victim = unique("console-victim");
        issue(operator, victim, "acme-*", "read", "", "");
        String victimId = (String) apiKey(victim).get("id");
        String adminOfSome = ConsoleApiTest.issue(unique("console-store-admin"), "[{\"stores\": \"acme-*\", "
                + "\"role\": \"admin\"}]");
        ConsoleClient c = ConsoleClient.signIn(adminOfSome);
        int before = keys.list().size();

        Response page = c.get("/console/keys");
        assertEquals(403, page.statusCode());
        assertFalse(page.asString().contains(victimId), "no key is shown to a non-operator");
        assertEquals(403, issue(c, unique("console-not-made"), "acme-*", "admin", "", "").statusCode());
        assertEquals(403, c.post("/console/keys/" + victimId + "/revoke").statusCode());
        assertEquals(before, keys.list().size(), "nothing issued, nothing revoked");
        assertTrue(apiKey(victim) != null);
        assertFalse(c.get("/console/stores").asString().contains("href=\"/console/keys\""),
                "the header has no keys link for a non-operator");
        assertTrue(operator.get("/console/stores").asString().contains("href=\"/console/keys\""));
    }

    @Test
    void theKeysAreListedAPageAtATime() {
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        for (int i = keys.list().size(); i <= 55; i++) {
            keys.issue(unique("console-page"), List.of(dev.engram.access.Grant.of("acme-*",
                    dev.engram.access.Role.READ)));
        }
        List<String> live = keys.list().stream().map(KeyRecord::id).toList();

        String html = c.get("/console/keys").then().statusCode(200).extract().asString();
        assertEquals(50, ContextsConsoleTest.count(html, "<form method=\"post\" action=\"/console/keys/key_"),
                "a revoke form for each key on the page");
        assertTrue(html.contains("/console/keys?after=" + live.get(49) + "\" rel=\"next\""), "a link to the next");
        String rest = c.get("/console/keys?after=" + live.get(49)).then().statusCode(200).extract().asString();
        assertTrue(rest.contains(live.get(50)) && !rest.contains(live.get(49) + "</code>"), rest);
    }

    /** The pages after {@code html}'s, followed by their next links. */
    private static String pagesAfter(ConsoleClient c, String html) {
        StringBuilder all = new StringBuilder();
        java.util.regex.Matcher next = java.util.regex.Pattern.compile("/console/keys\\?after=(key_[A-Za-z0-9_-]+)\" "
                + "rel=\"next\"").matcher(html);
        java.util.Set<String> seen = new HashSet<>();
        while (next.find() && seen.add(next.group(1))) {
            String page = c.get("/console/keys?after=" + next.group(1)).asString();
            all.append(page);
            next = java.util.regex.Pattern.compile("/console/keys\\?after=(key_[A-Za-z0-9_-]+)\" rel=\"next\"")
                    .matcher(page);
        }
        return all.toString();
    }
}
