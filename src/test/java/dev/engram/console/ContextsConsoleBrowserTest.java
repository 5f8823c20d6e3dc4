package dev.engram.console;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.TestAuth;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.Select;

/**
 * The contexts and keys pages in a real browser (headless Chromium): the list of contexts, a context with its fill
 * chart, its prompt in each format (picked by the links), its compactions after compacting with its form, its
 * tool-result cache and one result; the keys, a key issued through the form and revoked through the list. Each page
 * is screenshotted ({@code contexts-*}, {@code keys-*}), checked by axe-core for serious accessibility violations,
 * and free of script errors and refused loads.
 */
@QuarkusTest
class ContextsConsoleBrowserTest {

    @TestHTTPResource("/")
    URI base;

    String store;
    String context;

    @BeforeEach
    void seed() {
        ConsoleBrowser.assumeAvailable();
        store = "ctxb-" + UUID.randomUUID().toString().substring(0, 8);
        String api = "/v1/stores/" + store + "/contexts/research-run";
        ContextsConsoleTest.json("{\"model\": {\"context_window\": 3000, \"output_limit\": 300}, \"strategy\": "
                + "{\"name\": \"summarization\", \"keep_last\": 4, \"block_size\": 6, \"summarizer\": \"none\"}}")
                .put(api).then().statusCode(201);
        ContextsConsoleTest.json("{\"text\": \"You are a careful research assistant.\"}").put(api + "/system-prompt")
                .then().statusCode(200);
        ContextsConsoleTest.json("{\"text\": \"Find why the nightly build fails.\"}").put(api + "/task").then()
                .statusCode(200);
        for (int batch = 0; batch < 6; batch++) {
            ContextsConsoleTest.json(ContextsConsoleTest.steps(batch * 4, 4)).post(api + "/steps").then()
                    .statusCode(200);
        }
        ContextsConsoleTest.json("{\"tool_name\": \"read_file\", \"content\": \"[build]\\nretries = 3\\n\", "
                + "\"file_path\": \"/ci/build.toml\", \"file_mtime_nanos\": 1, \"file_size\": 24}")
                .post(api + "/tool-results").then().statusCode(200);
        ContextsConsoleTest.json("{\"model\": {\"context_window\": 8000, \"output_limit\": 1000}}")
                .put("/v1/stores/" + store + "/contexts/quick-check").then().statusCode(201);
        context = "/console/stores/" + store + "/contexts/research-run";
    }

    static void clean(ConsoleBrowser b, String page) throws Exception {
        assertEquals(List.of(), b.seriousViolations(), page + ": serious accessibility violations");
        assertEquals(List.of(), b.severeLogs(), page + ": script errors or refused loads");
    }

    @Test
    void browseAContextAndItsPromptCompactionsAndCache() throws Exception {
        try (ConsoleBrowser b = ConsoleBrowser.open(base)) {
            b.signIn(TestAuth.OPERATOR_KEY);

            b.go("/console/stores/" + store);
            b.driver.findElement(By.linkText("Contexts")).click();
            b.waitFor(d -> d.getCurrentUrl().endsWith("/contexts"));
            assertTrue(b.text().contains("research-run") && b.text().contains("quick-check"), b.text());
            b.screenshot("contexts-list");
            clean(b, "contexts list");

            b.driver.findElement(By.linkText("research-run")).click();
            b.waitFor(d -> d.getCurrentUrl().endsWith("/contexts/research-run"));
            assertEquals(9, b.all("svg.chart circle.point").size(), "configured, two texts and six appends");
            assertEquals(3, b.all("svg.chart line.threshold").size());
            assertTrue(b.find("#chart-desc").getAttribute("textContent").contains("The fill after each of the last 9 "
                    + "changes"), b.find("#chart-desc").getAttribute("textContent"));
            b.screenshot("contexts-context");
            clean(b, "a context");
            // The collapsed long observation opens, and the table of the chart's numbers too.
            b.find("details.numbers summary").click();
            assertTrue(b.find("details.numbers table").isDisplayed());
            b.find("#step-6 details.part summary").click();
            assertTrue(b.find("#step-6 details.part pre").isDisplayed(), "a long output opens");
            assertTrue(b.find("#step-3").getText().contains("<script>alert(1)</script>"), "agents' text as text");

            b.driver.findElement(By.linkText("Prompt")).click();
            b.waitFor(d -> d.getCurrentUrl().endsWith("/prompt"));
            assertTrue(b.find("pre.json").getText().contains("\"messages\""));
            b.screenshot("contexts-prompt");
            clean(b, "the prompt");
            b.driver.findElement(By.partialLinkText("Anthropic Messages")).click();
            b.waitFor(d -> d.getCurrentUrl().endsWith("?format=anthropic"));
            assertTrue(b.find("pre.json").getText().contains("\"system\""), "the Anthropic form has a system member");
            b.screenshot("contexts-prompt-anthropic");
            clean(b, "the prompt for Anthropic");
            b.driver.findElement(By.partialLinkText("OpenAI Chat Completions")).click();
            b.waitFor(d -> d.getCurrentUrl().endsWith("?format=openai-chat"));
            assertTrue(b.find("pre.json").getText().contains("\"tool_calls\""));

            b.go(context);
            b.find("form[action$='/compact'] button[type=submit]").click();
            b.waitFor(d -> d.getCurrentUrl().endsWith("?compacted=true"));
            assertTrue(b.text().contains("Compacted"), b.text());
            assertEquals(1, b.all("svg.chart circle.point.compaction").size(), "the compaction's point");
            b.driver.findElement(By.linkText("Compactions")).click();
            b.waitFor(d -> d.getCurrentUrl().endsWith("/compactions"));
            String compactions = b.text();
            assertTrue(compactions.contains("summarization") && compactions.contains("1 to 20 (20 steps)"),
                    compactions);
            b.screenshot("contexts-compactions");
            clean(b, "compactions");

            b.driver.findElement(By.linkText("Tool-result cache")).click();
            b.waitFor(d -> d.getCurrentUrl().endsWith("/tool-results"));
            assertTrue(b.text().contains("/ci/build.toml"), b.text());
            b.screenshot("contexts-tool-results");
            clean(b, "the tool-result cache");
            String fileHash = given().get("/v1/stores/" + store + "/contexts/research-run/tool-results/"
                    + dev.engram.contexts.cache.ToolResultCache.fileHash("read_file", "/ci/build.toml", 1, 24))
                    .jsonPath().getString("short_hash");
            b.driver.findElement(By.linkText(fileHash)).click();
            b.waitFor(d -> d.getCurrentUrl().endsWith("/tool-results/" + fileHash));
            assertTrue(b.find("pre.output").getText().contains("retries = 3"), b.text());
            b.screenshot("contexts-tool-result");
            clean(b, "a cached tool result");
        }
    }

    @Test
    void issueAKeyAndRevokeItThroughTheForms() throws Exception {
        String name = "browser-made-" + UUID.randomUUID().toString().substring(0, 8);
        try (ConsoleBrowser b = ConsoleBrowser.open(base)) {
            b.signIn(TestAuth.OPERATOR_KEY);
            b.driver.findElement(By.linkText("Keys")).click();
            b.waitFor(d -> d.getCurrentUrl().endsWith("/console/keys"));
            b.screenshot("keys-list");
            clean(b, "the keys");

            b.find("#key-name").sendKeys(name);
            b.find("#stores-0").sendKeys(store);
            new Select(b.find("#role-0")).selectByValue("write");
            b.find("#stores-1").sendKeys("shared-*");
            b.find("#scopes-1").sendKeys("project, notes");
            b.find("form[action='/console/keys'] button[type=submit]").click();
            b.waitFor(d -> d.getPageSource().contains("is issued"));
            String secret = b.find("#secret").getAttribute("value");
            assertTrue(secret.startsWith("eng_"), secret);
            b.screenshot("keys-issued");
            clean(b, "a key just issued");
            given().header("Authorization", "Bearer " + secret).get("/v1/stores/" + store + "/contexts").then()
                    .statusCode(org.hamcrest.Matchers.not(401));

            b.driver.findElement(By.linkText("Back to the keys")).click();
            b.waitFor(d -> d.getCurrentUrl().endsWith("/console/keys"));
            assertFalse(b.driver.getPageSource().contains(secret), "the list never shows a secret");
            // The key is on some page of the list: follow "Next keys" to it, then revoke it there.
            for (int page = 0; page < 100 && !b.text().contains(name); page++) {
                b.find("a[rel=next]").click();
            }
            b.find("button[aria-label^='Revoke " + name + "']").click();
            b.waitFor(d -> d.getCurrentUrl().contains("?revoked=key_"));
            assertTrue(b.text().contains("is revoked"), b.text());
            clean(b, "a key revoked");
            given().header("Authorization", "Bearer " + secret).get("/v1/stores/" + store + "/contexts").then()
                    .statusCode(401);
        }
    }
}
