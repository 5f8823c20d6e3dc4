package dev.engram.console;

import static dev.engram.rest.Api.json;
import static dev.engram.rest.Api.put;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.TestAuth;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebElement;

/**
 * The render preview and the memories pages in a real browser (headless Chromium): each page screenshotted
 * ({@code memories-<page>}), checked by axe-core for serious accessibility violations, and free of script errors and
 * refused loads; a recall run from the playground's form shows each result's breakdown; a memory archived from its
 * page; a bank reflected from its page.
 */
@QuarkusTest
class MemoriesConsoleBrowserTest {

    @TestHTTPResource("/")
    URI base;

    String store;

    @BeforeEach
    void seed() {
        ConsoleBrowser.assumeAvailable();
        store = "mbrowse-" + UUID.randomUUID().toString().substring(0, 8);
        put(store, "user", "style", "{\"content\": \"Short answers, **no** fluff.\\n\\n- one\\n- two\\n\", \"meta\": "
                + "{\"description\": \"How the user likes answers\"}}").then().statusCode(201);
        put(store, "user", "timezone", "{\"content\": \"Europe/London\"}").then().statusCode(201);
        put(store, "project", "build", "{\"content\": \"Run `make check` before a commit.\"}").then().statusCode(201);
        put(store, "project", "deploy", "{\"content\": \"" + "Deploy on Tuesdays, after the review. ".repeat(4)
                + "\"}").then().statusCode(201);
        String[][] memories = {
            {"apollo-1", "fact", "Apollo ships on **Friday**.", "0.8", "apollo"},
            {"apollo-2", "fact", "The Apollo launch slipped a week.", "0.5", "apollo"},
            {"apollo-3", "fact", "Apollo's release notes are in the wiki.", "0.4", "apollo"},
            {"tea", "preference", "Alice likes green tea in the afternoon.", "0.6", "drinks"}};
        for (String[] m : memories) {
            json().body("{\"id\": \"" + m[0] + "\", \"bank\": \"user:alice\", \"type\": \"" + m[1] + "\", "
                    + "\"content\": \"" + m[2] + "\", \"importance\": " + m[3] + ", \"tags\": [\"" + m[4] + "\"]}")
                    .post("/v1/stores/" + store + "/memories").then().statusCode(201);
        }
        json().body("{\"text\": \"Be brief and kind.\"}").put("/v1/stores/" + store + "/banks/user:alice/slots/SOUL")
                .then().statusCode(200);
    }

    static void clean(ConsoleBrowser b, String page) throws Exception {
        List<String> violations = b.seriousViolations();
        assertEquals(List.of(), violations, page + ": serious accessibility violations");
        assertEquals(List.of(), b.severeLogs(), page + ": script errors or refused loads");
    }

    @Test
    void eachPageRecallArchiveAndReflect() throws Exception {
        try (ConsoleBrowser b = ConsoleBrowser.open(base)) {
            b.signIn(TestAuth.OPERATOR_KEY);
            String s = "/console/stores/" + store;

            b.go(s + "/render?scope=user+project&max_total_bytes=600&scope_max_bytes=project:120");
            assertTrue(b.find("pre.block").getText().startsWith("# Memory"), b.text());
            assertEquals(4, b.all("table.budget meter").size(), "a bar per scope, the frame and the block");
            b.screenshot("memories-render");
            clean(b, "render preview");

            b.go(s + "/memories");
            assertEquals(4, b.all("table.memories tbody tr").size(), b.text());
            b.screenshot("memories-list");
            clean(b, "memories");
            b.find("#f-tag").sendKeys("drinks");
            b.find("form.filters button[type=submit]").click();
            b.waitFor(d -> d.getCurrentUrl().contains("tag=drinks"));
            assertEquals(1, b.all("table.memories tbody tr").size(), "the tag filter narrows the list");

            b.go(s + "/recall");
            b.find("#query").sendKeys("apollo friday");
            b.find("form.recall-form button[type=submit]").click();
            b.waitFor(d -> !b.all("table.ranking tbody tr").isEmpty());
            assertTrue(b.driver.getCurrentUrl().contains("query=apollo+friday"), "a search is a link");
            List<WebElement> rows = b.all("table.ranking tbody tr");
            assertEquals(3, rows.size(), b.text());
            assertTrue(rows.get(0).getText().contains("apollo-1"), "the best first: " + rows.get(0).getText());
            assertEquals(9, rows.get(0).findElements(org.openqa.selenium.By.cssSelector("td.part")).size(),
                    "the score and its 8 parts");
            assertEquals(9, rows.get(0).findElements(org.openqa.selenium.By.cssSelector("svg.bar")).size());
            b.screenshot("memories-recall");
            clean(b, "recall playground");

            b.go(s + "/memories/apollo-2");
            b.screenshot("memories-memory");
            clean(b, "memory");
            b.find("#reason").sendKeys("Superseded by the launch plan");
            b.find("form[action$='/archive'] button[type=submit]").click();
            b.waitFor(d -> d.getPageSource().contains("Archived. The journal records the change."));
            assertTrue(given().get("/v1/stores/" + store + "/memories/apollo-2").jsonPath().getBoolean("archived"));
            assertTrue(b.text().contains("Superseded by the launch plan"), b.text());
            b.screenshot("memories-archived");
            clean(b, "archived memory");

            b.go(s + "/banks/user:alice");
            assertTrue(b.text().contains("# SOUL"), "the context string");
            b.screenshot("memories-bank");
            clean(b, "bank");
            b.find("form[action$='/reflect'] button[type=submit]").click();
            b.waitFor(d -> d.getPageSource().contains("Reflection done"));
            assertTrue(b.text().contains("reviewed 2 new facts: 1 observation created"), b.text());
            b.screenshot("memories-reflected");
            clean(b, "reflected bank");
        }
    }
}
