package dev.engram.console;

import static dev.engram.rest.Api.put;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.TestAuth;
import dev.engram.rest.Api;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console in a real browser (headless Chromium): signing in, the stores, a store, a scope and an entry, an edit
 * that meets another write and shows both versions; each page screenshotted, checked by axe-core for serious
 * accessibility violations, and free of script errors and refused loads (a CSP violation is a console error).
 */
@QuarkusTest
class ConsoleBrowserTest {

    @TestHTTPResource("/")
    URI base;

    String store;

    @BeforeEach
    void seed() {
        ConsoleBrowser.assumeAvailable();
        store = "browse-" + UUID.randomUUID().toString().substring(0, 8);
        put(store, "user", "style", "{\"content\": \"# Style\\n\\nShort answers, **no** fluff.\\n\\n- one\\n- two\\n\","
                + " \"meta\": {\"description\": \"How the user likes answers\"}}").then().statusCode(201);
        put(store, "project", "build", "{\"content\": \"Run `make check` before a commit.\"}").then().statusCode(201);
    }

    static void clean(ConsoleBrowser b, String page) throws Exception {
        List<String> violations = b.seriousViolations();
        assertEquals(List.of(), violations, page + ": serious accessibility violations");
        assertEquals(List.of(), b.severeLogs(), page + ": script errors or refused loads");
    }

    @Test
    void signInBrowseEachPageAndEditWithAConflict() throws Exception {
        try (ConsoleBrowser b = ConsoleBrowser.open(base)) {
            b.go("/console/stores");
            assertTrue(b.driver.getCurrentUrl().endsWith("/console/sign-in"), "sent to sign in");
            b.screenshot("sign-in");
            clean(b, "sign-in");

            b.signIn(TestAuth.OPERATOR_KEY);
            b.screenshot("stores");
            clean(b, "stores");
            // The store is on some page of the list: follow "Next stores" to it.
            for (int page = 0; page < 100 && !b.text().contains(store); page++) {
                b.find("a[rel=next]").click();
            }
            assertTrue(b.text().contains(store), b.text());

            b.go("/console/stores/" + store);
            assertTrue(b.text().contains("user") && b.text().contains("project"), b.text());
            b.screenshot("store");
            clean(b, "store");

            b.go("/console/stores/" + store + "/scopes/user");
            assertEquals("Style", b.find("li.entry .markdown h1").getText(), "the entry's Markdown is rendered");
            b.screenshot("scope");
            clean(b, "scope");

            b.go("/console/stores/" + store + "/scopes/user/entries/style");
            b.screenshot("entry");
            clean(b, "entry");
            // Someone else writes while the page is open; this page's save must not overwrite it.
            put(store, "user", "style", "{\"content\": \"Long answers, with examples.\"}").then().statusCode(200);
            b.find("#content").clear();
            b.find("#content").sendKeys("Short answers, in English.");
            b.find("form[action$='/entries/style'] button[type=submit]").click();
            b.waitFor(d -> d.getPageSource().contains("changed since you read it"));
            String page = b.text();
            assertTrue(page.contains("Short answers, in English.") && page.contains("Long answers, with examples."),
                    page);
            b.screenshot("conflict");
            clean(b, "conflict");
            assertEquals("Long answers, with examples.", given().get(Api.entry(store, "user", "style"))
                    .jsonPath().getString("content"), "the conflict wrote nothing");

            // Saving over the current version, from the conflict page, lands.
            b.find("form[action$='/entries/style'] button[type=submit]").click();
            b.waitFor(d -> d.getPageSource().contains("Saved as journal record"));
            assertEquals("Short answers, in English.", given().get(Api.entry(store, "user", "style"))
                    .jsonPath().getString("content"));

            b.find("header form.sign-out button").click();
            b.waitFor(d -> d.getCurrentUrl().endsWith("/console/sign-in"));
            b.go("/console/stores");
            assertTrue(b.driver.getCurrentUrl().endsWith("/console/sign-in"), "signed out");
        }
    }
}
