package dev.engram.console;

import static dev.engram.rest.Api.json;
import static dev.engram.rest.Api.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.TestAuth;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Stored XSS against every view of the console, in a real browser. Agent-written text carrying script tags, event
 * handlers, {@code javascript:} and {@code data:} links, SVG, Markdown link tricks, mutation-XSS and breakouts of a
 * textarea, a title or an attribute is written through the API into entry content and meta, memory content and tags,
 * context thoughts, tool names and inputs, observations and cached tool results; each page that shows it is opened
 * twice: once with the Content-Security-Policy in force, where the browser must report no violation (nothing even
 * tried to run), and once with Chromium told to bypass the policy (DevTools {@code Page.setBypassCSP}), where every
 * payload that reached the page as markup would run and set {@code window.__xss}: it must stay unset, so the pages'
 * escaping and the Markdown sanitiser, not the policy alone, keep the text inert. Each page must also show the text
 * ({@code XSS-PROBE}) and hold no script but the console's, no {@code on...} attribute, no frame or object, and no
 * link, source or form action with a script or data URL.
 */
@QuarkusTest
class ConsoleStoredXssBrowserTest {

    static final ObjectMapper JSON = new ObjectMapper();

    /** Each sets {@code window.__xss} to its name if it ever runs; each shows the marker as text where escaped. */
    static final List<String> PAYLOADS = List.of(
            "XSS-PROBE <script>window.__xss='script'</script>",
            "XSS-PROBE <img src=x onerror=\"window.__xss='img'\">",
            "XSS-PROBE <svg onload=\"window.__xss='svg'\"><script>window.__xss='svg-script'</script></svg>",
            "XSS-PROBE [click me](javascript:window.__xss='md-link')",
            "XSS-PROBE [click me](JaVaScRiPt&#58;window.__xss='md-entity')",
            "XSS-PROBE [data](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)",
            "XSS-PROBE ![pic](x\" onerror=\"window.__xss='md-img')",
            "XSS-PROBE <a href=\"javascript:window.__xss='a'\">link</a>",
            "XSS-PROBE <iframe src=\"javascript:top.__xss='iframe'\"></iframe>",
            "XSS-PROBE <details open ontoggle=\"window.__xss='details'\"><summary>s</summary></details>",
            "XSS-PROBE <input autofocus onfocus=\"window.__xss='focus'\">",
            "XSS-PROBE <math><mtext><table><mglyph><style><img src=x onerror=\"window.__xss='mxss'\">",
            "XSS-PROBE \"><img src=x onerror=\"window.__xss='attr'\">",
            "XSS-PROBE '><svg/onload=window.__xss='single'>",
            "XSS-PROBE </textarea><img src=x onerror=\"window.__xss='textarea'\">",
            "XSS-PROBE </title><img src=x onerror=\"window.__xss='title'\">",
            "XSS-PROBE </pre></code><img src=x onerror=\"window.__xss='pre'\">",
            "XSS-PROBE <object data=\"javascript:window.__xss='object'\"></object><embed src=x>",
            "XSS-PROBE <base href=\"javascript:/\"><meta http-equiv=\"refresh\" content=\"0;url=javascript:1\">",
            "XSS-PROBE {#for x in chrome}{x}{/for} {chrome.csrf} {inject:config}");

    static final String ALL = String.join("\n\n", PAYLOADS);
    static final Pattern HASH_LINK = Pattern.compile("/tool-results/([0-9a-f]{4,64})\"");

    @TestHTTPResource("/")
    URI base;

    @Test
    void agentTextRunsNowhereInTheConsole() throws Exception {
        ConsoleBrowser.assumeAvailable();
        String store = "xss-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Boolean> pages = seed(store);
        try (ConsoleBrowser b = ConsoleBrowser.open(base)) {
            b.signIn(TestAuth.OPERATOR_KEY);
            for (var page : pages.entrySet()) {
                b.go(page.getKey());
                inert(b, page.getKey(), page.getValue());
                assertEquals(List.of(), b.severeLogs(), page.getKey() + ": with the policy in force, something tried to run");
            }
            ((ChromeDriver) b.driver).executeCdpCommand("Page.setBypassCSP", Map.of("enabled", true));
            for (var page : pages.entrySet()) {
                b.go(page.getKey());
                inert(b, page.getKey(), page.getValue());
                Thread.sleep(50); // an onerror fires once the broken image's load has failed
                Object ran = ((JavascriptExecutor) b.driver).executeScript("return window.__xss || null;");
                assertEquals(null, ran, page.getKey() + ": a payload ran with the policy bypassed");
            }
            b.go("/console/stores/" + store + "/scopes/user");
            b.screenshot("xss-scope");
        }
    }

    /** The page shows the probe as text where it {@code shows} agent text, and holds nothing that could run. */
    private static void inert(ConsoleBrowser b, String page, boolean shows) {
        if (shows) {
            assertTrue(b.driver.getPageSource().contains("XSS-PROBE"), page + ": the payloads are not on the page");
        }
        @SuppressWarnings("unchecked")
        List<String> found = (List<String>) ((JavascriptExecutor) b.driver).executeScript(
                "const bad = [];"
                + "for (const s of document.scripts) { if (s.getAttribute('src') !== '/console/assets/console.js') "
                + "bad.push('script ' + s.outerHTML.slice(0, 80)); }"
                + "for (const e of document.querySelectorAll('*')) {"
                + "  for (const a of e.attributes) {"
                + "    const v = a.value.trim().toLowerCase().replace(/[\\s\\u0000-\\u001f]/g, '');"
                + "    if (a.name.toLowerCase().startsWith('on')) bad.push(e.tagName + ' ' + a.name);"
                + "    if (['href', 'src', 'action', 'formaction', 'data', 'xlink:href', 'srcdoc'].includes(a.name)"
                + "        && (v.startsWith('javascript:') || v.startsWith('data:') || v.startsWith('vbscript:')))"
                + "      bad.push(e.tagName + ' ' + a.name + '=' + a.value.slice(0, 60));"
                + "  }"
                + "}"
                + "for (const e of document.querySelectorAll('iframe, frame, object, embed, base, meta[http-equiv]'))"
                + "  bad.push(e.tagName);"
                + "return bad;");
        assertEquals(List.of(), found, page + ": markup that could run");
    }

    /**
     * Writes the payloads everywhere an agent writes text; answers the console pages that show it or link to it, each
     * with whether it shows the text itself.
     */
    private Map<String, Boolean> seed(String store) throws Exception {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("content", "# Notes\n\n" + ALL);
        entry.put("meta", Map.of("description", PAYLOADS.get(1), "source", PAYLOADS.get(12)));
        put(store, "user", "notes", JSON.writeValueAsString(entry)).then().statusCode(201);
        put(store, "user", "notes", JSON.writeValueAsString(Map.of("content", "XSS-PROBE second\n\n" + ALL
                + "\n\n" + PAYLOADS.get(0)))).then().statusCode(200);

        Map<String, Object> memory = new LinkedHashMap<>();
        memory.put("id", "m1");
        memory.put("bank", "team");
        memory.put("type", "fact");
        memory.put("content", "deploys " + ALL);
        memory.put("tags", List.of(PAYLOADS.get(1), PAYLOADS.get(3), PAYLOADS.get(12)));
        json().body(JSON.writeValueAsString(memory)).post("/v1/stores/" + store + "/memories").then().statusCode(201);

        String context = "/v1/stores/" + store + "/contexts/run-x";
        json().body("{\"model\": {\"context_window\": 8000, \"output_limit\": 200}, \"strategy\": {\"name\": "
                + "\"sliding_window\", \"keep_first\": 1, \"keep_last\": 2}}").put(context).then().statusCode(201);
        List<Map<String, Object>> steps = new ArrayList<>();
        for (int i = 0; i < PAYLOADS.size(); i++) {
            String p = PAYLOADS.get(i);
            steps.add(Map.of("thought", p, "action", Map.of("id", "c" + i, "name", p.substring(0, Math.min(64,
                    p.length())), "input", JSON.writeValueAsString(Map.of("path", p))), "observation", p,
                    "cache", true));
        }
        json().body(JSON.writeValueAsString(Map.of("steps", steps))).post(context + "/steps").then().statusCode(200);
        json().body(JSON.writeValueAsString(Map.of("tool_name", PAYLOADS.get(2), "content", ALL)))
                .post(context + "/tool-results").then().statusCode(200);
        ConsoleClient admin = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String console = "/console/stores/" + store;
        assertEquals(303, admin.post(console + "/contexts/run-x/compact").statusCode(), "compacted");

        String results = admin.get(console + "/contexts/run-x/tool-results").asString();
        Matcher hash = HASH_LINK.matcher(results);
        assertTrue(hash.find(), "a cached result is listed: " + results);
        String recall = console + "/recall?query=" + java.net.URLEncoder.encode("deploys " + PAYLOADS.get(1),
                java.nio.charset.StandardCharsets.UTF_8);
        Map<String, Boolean> pages = new LinkedHashMap<>();
        for (String shown : List.of("/scopes/user", "/scopes/user/entries/notes", "/journal",
                "/journal?scope=user&name=notes", "/render", "/memories", "/memories/m1",
                "/contexts/run-x", "/contexts/run-x/prompt", "/contexts/run-x/prompt?format=anthropic",
                "/contexts/run-x/tool-results", "/contexts/run-x/tool-results/" + hash.group(1))) {
            pages.put(console + shown, true);
        }
        pages.put(recall, true);
        for (String linked : List.of("", "/banks", "/banks/team", "/contexts", "/contexts/run-x/compactions")) {
            pages.put(console + linked, false);
        }
        return pages;
    }
}
