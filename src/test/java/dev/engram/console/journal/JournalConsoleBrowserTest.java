package dev.engram.console.journal;

import static dev.engram.rest.Api.put;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.TestAuth;
import dev.engram.console.ConsoleBrowser;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;

/**
 * The console's journal in a real browser (headless Chromium): the timeline, an entry's history and the lost updates,
 * each screenshotted (journal-*), checked by axe-core for serious accessibility violations and free of script errors
 * and refused loads; the filter form; a folded diff opened; and the timeline following the journal live: an entry
 * written through the REST API while the page is open appears at the top of the page without a reload.
 */
@QuarkusTest
class JournalConsoleBrowserTest {

    @TestHTTPResource("/")
    URI base;

    static void clean(ConsoleBrowser b, String page) throws Exception {
        assertEquals(List.of(), b.seriousViolations(), page + ": serious accessibility violations");
        assertEquals(List.of(), b.severeLogs(), page + ": script errors or refused loads");
    }

    /** A store whose journal holds writes by two writers and sessions, a long edit, a lost update and two notes. */
    static String seed() {
        String s = "jbrowse-" + UUID.randomUUID().toString().substring(0, 8);
        String base = given().contentType("application/json").body("{\"content\": \"Prefers short answers.\", "
                + "\"meta\": {\"description\": \"How the user likes answers\"}}")
                .put("/v1/stores/" + s + "/scopes/user/entries/style").then().statusCode(201).extract()
                .path("entry.hash");
        given().header("Engram-Session", "slack-7f3a").contentType("application/json")
                .body("{\"content\": \"Prefers short answers.\\nUses tabs.\"}")
                .put("/v1/stores/" + s + "/scopes/user/entries/style").then().statusCode(200);
        given().header("Engram-Based-On", base).header("Engram-Session", "telegram-c91e")
                .contentType("application/json").body("{\"content\": \"Prefers short answers.\\nLives in Bristol.\"}")
                .put("/v1/stores/" + s + "/scopes/user/entries/style").then().statusCode(200);
        StringBuilder rules = new StringBuilder();
        for (int i = 1; i <= 30; i++) {
            rules.append("Rule ").append(i).append(": keep the build green.\\n");
        }
        put(s, "project", "build", "{\"content\": \"" + rules + "\"}").then().statusCode(201);
        put(s, "project", "build", "{\"content\": \"" + rules.toString().replace("Rule 15: keep", "Rule 15: never break")
                + "\"}").then().statusCode(200);
        given().contentType("application/json").body("{\"id\": \"m-1\", \"content\": \"The user lives in Bristol.\"}")
                .post("/v1/stores/" + s + "/memories").then().statusCode(201);
        given().contentType("application/json").body("{}").put("/v1/stores/" + s + "/contexts/run-1").then()
                .statusCode(201);
        given().contentType("application/json").body("{\"steps\": [{\"thought\": \"Read the build file first.\", "
                + "\"action\": {\"id\": \"c1\", \"name\": \"read_file\"}, \"observation\": \"ok\"}]}")
                .post("/v1/stores/" + s + "/contexts/run-1/steps").then().statusCode(200);
        return s;
    }

    @Test
    void eachJournalPageIsCleanAndTheTimelineFollowsTheJournalLive() throws Exception {
        ConsoleBrowser.assumeAvailable();
        String s = seed();
        try (ConsoleBrowser b = ConsoleBrowser.open(base)) {
            b.signIn(TestAuth.OPERATOR_KEY);

            b.go("/console/stores/" + s + "/journal");
            assertEquals(1, b.all("tr.lost .badge.lost").size(), "the lost update is marked");
            assertTrue(b.find("tr.lost").getText().contains("Uses tabs."), "with what it overwrote");
            String edit = b.find("tr[data-seq='5'] td.change").getText();
            assertTrue(edit.contains("- Rule 15: keep the build green.") && edit.contains(
                    "+ Rule 15: never break the build green.") && edit.contains("unchanged lines"), edit);
            WebElement folded = b.find("tr[data-seq='4'] td.change details");
            assertNull(folded.getAttribute("open"), "a long diff starts folded");
            folded.findElement(By.tagName("summary")).click();
            b.waitFor(d -> folded.getAttribute("open") != null);
            assertTrue(folded.getText().contains("+ Rule 30: keep the build green."), folded.getText());
            b.screenshot("journal-timeline");
            clean(b, "timeline");

            b.find("#filter-scope").sendKeys("user");
            b.find("#filter-name").sendKeys("style");
            b.find("form.filters button[type=submit]").click();
            b.waitFor(d -> d.getCurrentUrl().contains("scope=user&name=style"));
            assertEquals(3, b.all("tbody tr").size(), "the entry's three records");
            b.screenshot("journal-entry-history");
            clean(b, "entry history");

            b.go("/console/stores/" + s + "/journal/lost");
            assertEquals(1, b.all("tbody tr").size());
            b.screenshot("journal-lost");
            clean(b, "lost updates");

            b.go("/console/stores/" + s + "/journal");
            b.waitFor(d -> b.find("#live-status").getText().contains("live"));
            b.waitFor(d -> {
                ((JavascriptExecutor) d).executeScript("window.engramNotReloaded = true;");
                return true;
            });
            put(s, "user", "timezone", "{\"content\": \"Europe/London, <b>not</b> UTC.\"}").then().statusCode(201);
            b.waitFor(d -> !b.all("tr[data-seq='9']").isEmpty());
            WebElement arrived = b.find("tbody tr");
            assertEquals("9", arrived.getAttribute("data-seq"), "the new record is the top row");
            assertTrue(arrived.getText().contains("user/timezone"), arrived.getText());
            assertTrue(arrived.getText().contains("Europe/London, <b>not</b> UTC."), "escaped as text");
            b.waitFor(d -> Boolean.TRUE.equals(((JavascriptExecutor) d).executeScript(
                    "return window.engramNotReloaded === true;")));
            b.waitFor(d -> b.find("#live-status").getText().contains("9"));
            b.screenshot("journal-live");
            clean(b, "timeline after a live record");
        }
    }
}
