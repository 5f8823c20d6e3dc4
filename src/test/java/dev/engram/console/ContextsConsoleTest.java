package dev.engram.console;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.TestAuth;
import dev.engram.contexts.app.PromptFormats;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contexts pages over HTTP: a store's contexts, a context's steps a page at a time with its fill chart (a point
 * per change, the threshold lines), its prompt in each format exactly as the API answers it, its compactions after
 * one made with the page's form, its tool-result cache; the grants of the API (a read-only key sees no form and its
 * form writes nothing, a scope-limited key is refused, another tenant's store is not found); and agents' text shown
 * as text. The real browser's test is ContextsConsoleBrowserTest.
 */
@QuarkusTest
class ContextsConsoleTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)>";

    String store;
    String api;
    String page;

    @BeforeEach
    void seed() {
        store = "ctxc-" + UUID.randomUUID().toString().substring(0, 8);
        api = "/v1/stores/" + store + "/contexts/run-1";
        page = "/console/stores/" + store + "/contexts/run-1";
        json("{\"model\": {\"context_window\": 4000, \"output_limit\": 200}, \"strategy\": {\"name\": "
                + "\"sliding_window\", \"keep_first\": 1, \"keep_last\": 2}, \"pruning\": {\"keep_last_n\": 0}}")
                .put(api).then().statusCode(201);
        given().contentType("application/json").body("{\"text\": \"Be brief.\"}").put(api + "/system-prompt")
                .then().statusCode(200);
        for (int batch = 0; batch < 3; batch++) {
            json(steps(batch * 20, 20)).post(api + "/steps").then().statusCode(200);
        }
    }

    /** {@code count} steps from {@code first}: a read of file i, every tenth's output cached, the third hostile. */
    static String steps(int first, int count) {
        List<String> steps = new ArrayList<>();
        for (int i = first; i < first + count; i++) {
            String thought = i == 2 ? HOSTILE : "look at file " + i;
            String observation = i == 2 ? "<b onmouseover=alert(3)>bold</b>" : i == 5 ? "line\n".repeat(40)
                    : "contents of file " + i;
            steps.add("{\"thought\": " + quoted(thought) + ", \"action\": {\"id\": \"c" + i + "\", \"name\": "
                    + "\"read_file\", \"input\": " + quoted("{\"path\": \"f" + i + ".txt\"}") + "}, \"observation\": "
                    + quoted(observation) + (i % 10 == 0 ? ", \"cache\": true" : "") + "}");
        }
        return "{\"steps\": [" + String.join(", ", steps) + "]}";
    }

    @Test
    void theListShowsEachContextWithItsStepsAndFill() {
        json("{}").put("/v1/stores/" + store + "/contexts/run-0").then().statusCode(201);
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String html = c.get("/console/stores/" + store + "/contexts").then().statusCode(200).extract().asString();
        assertTrue(html.indexOf(">run-0<") < html.indexOf(">run-1<") && html.indexOf(">run-0<") > 0, html);
        String fill = given().get(api + "/fill").jsonPath().getString("percent");
        assertTrue(html.contains(">60<"), "run-1 holds 60 steps: " + html);
        assertTrue(html.contains(String.format(java.util.Locale.ROOT, "%.1f%%", Double.parseDouble(fill))), html);
        assertTrue(html.contains("4,000"), "the model window");
    }

    @Test
    void aContextShowsItsLatestStepsFirstAndPagesToTheOthers() {
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String latest = c.get(page).then().statusCode(200).extract().asString();
        assertTrue(latest.contains("Steps 51 to 60 of 60"), latest);
        assertTrue(latest.contains("id=\"step-60\"") && !latest.contains("id=\"step-50\""), "one page of steps");
        assertTrue(latest.contains("?from=0\">First steps"), latest);

        String first = c.get(page + "?from=0").then().statusCode(200).extract().asString();
        assertTrue(first.contains("Steps 1 to 50 of 60"), first);
        assertTrue(first.contains("id=\"step-1\"") && first.contains("id=\"step-50\"")
                && !first.contains("id=\"step-51\""), "the first page");
        assertTrue(first.contains("?from=50\" rel=\"next\">Later steps"), first);
        assertTrue(first.contains("contents of file 7"), "an observation is shown");
        assertTrue(first.contains("{&quot;path&quot;: &quot;f7.txt&quot;}"), "the call's input is shown");
        assertTrue(Pattern.compile("<details class=\"part\"><summary>Observation \\([^)]*, 41 lines\\)</summary>")
                .matcher(first).find(), "a long observation is collapsed: " + first);
        assertTrue(first.contains("output cached as "), "a cached output links to the cache");
        assertTrue(first.contains("Model window</dt><dd>4,000 tokens"), "the configuration");
        assertTrue(first.contains("compact at 85%, warning at 92%, emergency at 98%"), "the thresholds");
    }

    @Test
    void theFillChartHasAPointPerChangeAndTheThresholdLines() {
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String html = c.get(page).then().statusCode(200).extract().asString();
        // configured, system prompt set, three appends: each record carries the fill after it
        assertEquals(5, count(html, "<circle class=\"point "), html);
        assertEquals(3, count(html, "<line class=\"threshold "), html);
        assertTrue(html.contains("compact 85%") && html.contains("warning 92%") && html.contains("emergency 98%"));
        String last = given().get(api + "/fill").jsonPath().getString("percent");
        assertTrue(html.contains(String.format(java.util.Locale.ROOT, "to %.1f%%", Double.parseDouble(last))),
                "the text alternative names the last fill: " + html);
        assertEquals(5, count(html, "<td>steps appended</td>") + count(html, "<td>configured</td>")
                + count(html, "<td>system prompt set</td>"), "the table holds the same changes");

        json("{\"tool_name\": \"grep\", \"content\": \"hit\"}").post(api + "/tool-results").then().statusCode(200);
        String after = c.get(page).then().statusCode(200).extract().asString();
        assertEquals(5, count(after, "<circle class=\"point "), "a cached result does not change the fill");
        assertTrue(after.contains("<td>tool result cached</td>") && after.contains("not recorded"), after);
    }

    @Test
    void eachPromptFormatIsThePromptTheApiAnswersInIt() throws Exception {
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        for (String format : PromptFormats.NAMES) {
            String html = c.get(page + "/prompt?format=" + format).then().statusCode(200).extract().asString();
            JsonNode shown = JSON.readTree(unescape(match("<pre class=\"json\"[^>]*>(.*?)</pre>", html)));
            JsonNode answered = JSON.readTree(given().get(api + "/prompt?format=" + format).asString());
            assertEquals(answered, shown, format);
            assertTrue(html.contains("?format=" + format + "\" aria-current=\"page\""), "the picker marks " + format);
            assertFalse(html.contains("<script>alert"), "agents' text is escaped in " + format);
        }
        c.get(page + "/prompt").then().statusCode(200).body(org.hamcrest.Matchers.containsString(
                "?format=neutral\" aria-current=\"page\""));
        c.get(page + "/prompt?format=guess").then().statusCode(422);
    }

    @Test
    void aCompactionMadeWithTheFormIsListedWithWhatItReplaced() {
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        assertTrue(c.get(page + "/compactions").then().statusCode(200).extract().asString()
                .contains("No compaction"));
        Response done = c.post(page + "/compact");
        assertEquals(303, done.statusCode(), done.asString());
        assertTrue(done.header("Location").endsWith(page + "?compacted=true"), done.header("Location"));
        given().get(api).then().body("compacted", org.hamcrest.Matchers.equalTo(true))
                .body("compacted_through_index", org.hamcrest.Matchers.equalTo(60));

        String html = c.get(page + "/compactions").then().statusCode(200).extract().asString();
        assertTrue(html.contains("sliding window"), html);
        assertTrue(html.contains(">2 to 58</a> (57 steps)"), "the first and the last two steps were kept: " + html);
        assertTrue(html.contains("[... 57 steps omitted ...]"), "what stands in their place");
        assertTrue(html.contains("steps 1 to 60"), html);
        String context = c.get(page).then().statusCode(200).extract().asString();
        assertTrue(context.contains("<circle class=\"point ") && context.contains(" compaction\""),
                "the compaction is a point of the chart");
        assertTrue(context.contains("in the compacted prefix"), context);
    }

    @Test
    void theToolResultCacheListsEachResultAndShowsOne() {
        json("{\"tool_name\": \"read_file\", \"content\": \"" + HOSTILE.replace("\"", "\\\"") + "\\nsecond\", "
                + "\"file_path\": \"/src/app.js\", \"file_mtime_nanos\": 17, \"file_size\": 9}")
                .post(api + "/tool-results").then().statusCode(200);
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String list = c.get(page + "/tool-results").then().statusCode(200).extract().asString();
        List<String> hashes = all("tool-results/([0-9a-f]{4,64})\"><code>", list);
        assertEquals(7, hashes.size(), "six outputs cached by their steps, one by the route: " + list);
        assertEquals(hashes.stream().sorted().toList(), hashes, "by short hash");
        assertTrue(list.contains("/src/app.js"), "a file read's path");
        assertFalse(list.contains("contents of file"), "no content in the listing");

        String fileHash = given().get(api + "/steps").jsonPath().getString("steps[10].cache_hash");
        String one = c.get(page + "/tool-results/" + fileHash).then().statusCode(200).extract().asString();
        assertTrue(one.contains("contents of file 10"), one);
        for (String h : hashes) {
            String shown = c.get(page + "/tool-results/" + h).then().statusCode(200).extract().asString();
            assertFalse(shown.contains("<script>alert") || shown.contains("<img src=x"), shown);
        }
        c.get(page + "/tool-results/ffffffffffffffff").then().statusCode(404);
        c.get(page + "/tool-results/not-a-hash").then().statusCode(404);
    }

    @Test
    void aReadOnlyKeySeesNoFormAndItsFormWritesNothing() {
        String key = ConsoleApiTest.issue("ctx-reader-" + store, "[{\"stores\": \"" + store + "\", \"role\": "
                + "\"read\"}]");
        ConsoleClient c = ConsoleClient.signIn(key);
        for (String p : List.of("/console/stores/" + store + "/contexts", page, page + "/prompt",
                page + "/compactions", page + "/tool-results")) {
            String html = c.get(p).then().statusCode(200).extract().asString();
            assertEquals(1, count(html, "method=\"post\""), p + " shows no form but signing out");
        }
        int records = given().get("/v1/stores/" + store + "/journal").jsonPath().getList("records").size();
        assertEquals(403, c.post(page + "/compact").statusCode());
        assertEquals(records, given().get("/v1/stores/" + store + "/journal").jsonPath().getList("records").size());
        given().get(api).then().body("compacted", org.hamcrest.Matchers.equalTo(false));
    }

    @Test
    void aScopeLimitedKeyIsRefusedAndAnotherTenantFindsNothing() {
        String limited = ConsoleApiTest.issue("ctx-limited-" + store, "[{\"stores\": \"" + store + "\", \"role\": "
                + "\"write\", \"scopes\": [\"user\"]}]");
        String other = ConsoleApiTest.issue("ctx-other-" + store, "[{\"stores\": \"elsewhere-*\", \"role\": "
                + "\"admin\"}]");
        ConsoleClient l = ConsoleClient.signIn(limited);
        ConsoleClient o = ConsoleClient.signIn(other);
        for (String p : List.of("/console/stores/" + store + "/contexts", page, page + "/prompt",
                page + "/compactions", page + "/tool-results")) {
            assertEquals(403, l.get(p).statusCode(), p);
            Response notFound = o.get(p);
            assertEquals(404, notFound.statusCode(), p);
            assertFalse(notFound.asString().contains("run-1") && notFound.asString().contains("file"), p);
        }
        assertEquals(404, o.post(page + "/compact").statusCode());
        given().get(api).then().body("compacted", org.hamcrest.Matchers.equalTo(false));
        ConsoleClient admin = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        assertEquals(404, admin.get("/console/stores/" + store + "/contexts/nobody").statusCode());
    }

    @Test
    void agentsTextIsShownAsText() {
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        for (String p : List.of(page + "?from=0", page + "/prompt?format=anthropic", page + "/prompt")) {
            String html = c.get(p).then().statusCode(200).extract().asString();
            assertFalse(html.contains("<script>alert"), p);
            assertFalse(html.contains("<img src=x"), p);
            assertFalse(html.contains("<b onmouseover"), p);
            assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), p + ": " + html);
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    static io.restassured.specification.RequestSpecification json(String body) {
        return given().contentType("application/json").body(body);
    }

    static String quoted(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    static int count(String html, String what) {
        int n = 0;
        for (int i = html.indexOf(what); i >= 0; i = html.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    static String match(String regex, String html) {
        Matcher m = Pattern.compile(regex, Pattern.DOTALL).matcher(html);
        if (!m.find()) {
            throw new AssertionError("no " + regex + " in " + html);
        }
        return m.group(1);
    }

    static List<String> all(String regex, String html) {
        Matcher m = Pattern.compile(regex).matcher(html);
        List<String> found = new ArrayList<>();
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    /** The text of HTML that Qute escaped. */
    static String unescape(String html) {
        return html.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
                .replace("&amp;", "&");
    }
}
