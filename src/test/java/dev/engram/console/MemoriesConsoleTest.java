package dev.engram.console;

import static dev.engram.rest.Api.json;
import static dev.engram.rest.Api.put;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.TestAuth;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The console's render preview and memories pages over HTTP, as a browser without script uses them: the preview's
 * block is the API's, byte for byte, and its bars add up to it; each filter of the memories narrows the list, and the
 * list comes a page at a time; archive and supersede change the memory and journal it, as the API's do; a read-only
 * key sees no form and its form writes nothing; the recall playground shows each result's breakdown, the API's
 * numbers; a bank's entrypoint, context string and reflection; agent text is escaped everywhere. The real browser's
 * tests are in MemoriesConsoleBrowserTest.
 */
@QuarkusTest
class MemoriesConsoleTest {

    static final Pattern BLOCK = Pattern.compile("<pre class=\"text block\"[^>]*>(.*?)</pre>", Pattern.DOTALL);
    static final Pattern METER = Pattern.compile("<meter min=\"0\" max=\"(\\d+)\" value=\"(\\d+)\"");
    static final Pattern MEMORY_LINK = Pattern.compile("href=\"/console/stores/[^/]+/memories/([^\"?]+)\"");

    static String store() {
        return "mcon-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Saves a memory with the operator key; {@code extra} adds members ({@code "tags": [...]}). */
    static void save(String store, String id, String bank, String type, String content, double importance,
            String extra) {
        json().body("{\"id\": \"" + id + "\", \"bank\": \"" + bank + "\", \"type\": \"" + type + "\", \"content\": \""
                + content + "\", \"importance\": " + importance + (extra.isEmpty() ? "" : ", " + extra) + "}")
                .post("/v1/stores/" + store + "/memories").then().statusCode(201);
    }

    /** Text Qute escaped, as it was. */
    static String unescape(String html) {
        return html.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
                .replace("&amp;", "&");
    }

    /** The ids of the memories a page links to, in order, each once. */
    static List<String> linked(String page) {
        Set<String> ids = new LinkedHashSet<>();
        Matcher m = MEMORY_LINK.matcher(page.substring(page.indexOf("<table class=\"list memories\"") < 0 ? 0
                : page.indexOf("<table class=\"list memories\"")));
        while (m.find()) {
            ids.add(java.net.URLDecoder.decode(m.group(1), StandardCharsets.UTF_8));
        }
        return new ArrayList<>(ids);
    }

    /** A link or a redirect's location as the page wrote it, its escapes sent as they are. */
    static Response follow(ConsoleClient c, String url) {
        return c.request().urlEncodingEnabled(false).get(url);
    }

    static List<String> journalKinds(String store) {
        return given().get("/v1/stores/" + store + "/journal").jsonPath().getList("records.kind");
    }

    @Test
    void theRenderPreviewShowsTheApisBlockByteForByteAndItsBarsAddUpToIt() {
        String s = store();
        put(s, "user", "style", "{\"content\": \"Short answers.\\n\\nCode in Go.\\n\", \"meta\": {\"description\": "
                + "\"How the user likes answers\"}}").then().statusCode(201);
        put(s, "user", "timezone", "{\"content\": \"Europe/London\"}").then().statusCode(201);
        put(s, "project", "build", "{\"content\": \"Run make check before a commit.\\n\"}").then().statusCode(201);
        put(s, "project", "deploy", "{\"content\": \"" + "Deploy with care. ".repeat(6) + "\"}").then()
                .statusCode(201);
        String api = "/v1/stores/" + s + "/render?scope=user&scope=project&max_total_bytes=420"
                + "&scope_max_bytes=project:90";
        String block = given().get(api).then().statusCode(200).extract().asString();
        JsonPath rendered = given().accept("application/json").get(api).jsonPath();

        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String page = c.get("/console/stores/" + s + "/render?scope=user,project&max_total_bytes=420"
                + "&scope_max_bytes=project:90").then().statusCode(200).extract().asString();
        Matcher pre = BLOCK.matcher(page);
        assertTrue(pre.find(), page);
        assertEquals(block, unescape(pre.group(1)), "the block is the API's, byte for byte");
        assertTrue(page.contains(rendered.getString("manifest_hash")), "the manifest's hash");
        assertTrue(page.contains("GET " + api.replace("&", "&amp;") + "</code>"), "the same render over the API");

        List<int[]> meters = new ArrayList<>();
        Matcher m = METER.matcher(page);
        while (m.find()) {
            meters.add(new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))});
        }
        assertEquals(4, meters.size(), "user, project, the title and summary, and the block: " + page);
        int bytes = block.getBytes(StandardCharsets.UTF_8).length;
        assertEquals(bytes, meters.get(3)[1], "the block's bar is its size");
        assertEquals(bytes, meters.get(0)[1] + meters.get(1)[1] + meters.get(2)[1], "the parts add up to the block");
        meters.forEach(bar -> assertEquals(420, bar[0], "each bar is of the bound"));
        assertTrue(meters.get(1)[1] <= 90 + "\n\n## project".length(), "project's cap holds, its heading aside");

        List<String> omitted = rendered.getList("manifest.omitted.name");
        assertFalse(omitted.isEmpty(), "something was left out: " + block);
        for (String name : omitted) {
            assertTrue(page.contains(">" + name + "</a></th>"), "the omission of " + name + " is listed");
        }
        assertTrue(page.contains("scope project&#39;s cap of 90 bytes"), "why, in words");
        for (String hash : rendered.<String>getList("manifest.entries.hash")) {
            assertTrue(page.contains(hash), "the manifest's entries with their hashes");
        }
    }

    @Test
    void aBoundTooSmallShowsTheRendersRefusalOnThePage() {
        String s = store();
        put(s, "user", "style", "{\"content\": \"Short answers.\"}").then().statusCode(201);
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String page = c.get("/console/stores/" + s + "/render?scope=user&max_total_bytes=10").then().statusCode(422)
                .extract().asString();
        String refusal = given().get("/v1/stores/" + s + "/render?scope=user&max_total_bytes=10").then()
                .statusCode(422).extract().path("detail");
        assertTrue(page.contains(refusal.replace("'", "&#39;")), "the render's own message: " + page);
        assertTrue(page.contains("name=\"max_total_bytes\" inputmode=\"numeric\" value=\"10\""), "the form again");
        c.get("/console/stores/" + s + "/render?scope_max_bytes=user").then().statusCode(422);
        c.get("/console/stores/" + s + "/render?max_total_bytes=2000000").then().statusCode(422);
    }

    @Test
    void eachFilterNarrowsTheMemoriesAndTheListComesAPageAtATime() {
        String s = store();
        save(s, "a1", "user:alice", "fact", "Alice likes tea.", 0.9, "\"tags\": [\"drinks\"]");
        save(s, "a2", "user:alice", "skill", "Alice ships Apollo.", 0.3, "\"tags\": [\"apollo\"]");
        save(s, "a3", "user:alice", "fact", "Alice lived in Leeds.", 0.6, "");
        save(s, "b1", "user:bob", "fact", "Bob ships Apollo too.", 0.5, "\"tags\": [\"apollo\"]");
        json().body("{\"reason\": \"moved\"}").post("/v1/stores/" + s + "/memories/a3/archive").then()
                .statusCode(200);
        json().body("{\"by\": \"a1\"}").post("/v1/stores/" + s + "/memories/a2/supersede").then().statusCode(200);
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String base = "/console/stores/" + s + "/memories";

        String all = c.get(base).then().statusCode(200).extract().asString();
        assertEquals(Set.of("a1", "a2", "a3", "b1"), Set.copyOf(linked(all)));
        assertTrue(all.contains(">user:alice</a></th>") && all.contains(">user:bob</a></th>"), "the banks");
        assertEquals(List.of("a1", "a3", "a2"), linked(c.get(base + "?bank=user:alice").asString()),
                "a bank's, most important first");
        assertEquals(List.of("a2"), linked(c.get(base + "?type=skill").asString()));
        assertEquals(Set.of("a2", "b1"), Set.copyOf(linked(c.get(base + "?tag=apollo").asString())));
        assertEquals(List.of("a3"), linked(c.get(base + "?archived=yes").asString()));
        assertEquals(Set.of("a1", "a2", "b1"), Set.copyOf(linked(c.get(base + "?archived=no").asString())));
        assertEquals(List.of("a2"), linked(c.get(base + "?stale=yes").asString()));
        assertEquals(List.of("a1", "a3"), linked(c.get(base + "?bank=user:alice&type=fact&stale=no").asString()));
        c.get(base + "?archived=maybe").then().statusCode(422);
        c.get(base + "?bank=no%20such").then().statusCode(422);
    }

    @Test
    void aLongListComesAPageAtATimeEachMemoryOnce() {
        String s = store();
        StringBuilder batch = new StringBuilder("{\"memories\": [");
        for (int i = 0; i < 57; i++) {
            batch.append(i == 0 ? "" : ", ").append("{\"id\": \"m").append(String.format(Locale.ROOT, "%02d", i))
                    .append("\", \"content\": \"fact ").append(i).append("\", \"bank\": \"team\", \"created_at\": \"")
                    .append(String.format(Locale.ROOT, "2026-01-01T00:%02d:00Z", i)).append("\"}");
        }
        json().body(batch.append("]}").toString()).post("/v1/stores/" + s + "/memories/batch").then()
                .statusCode(201);
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String first = c.get("/console/stores/" + s + "/memories").then().statusCode(200).extract().asString();
        List<String> page1 = linked(first);
        assertEquals(50, page1.size(), "a page of the console's page size");
        assertEquals("m56", page1.get(0), "newest first");
        Matcher next = Pattern.compile("href=\"(/console/stores/[^\"]+/memories\\?after=[^\"]+)\" rel=\"next\"")
                .matcher(first);
        assertTrue(next.find(), first);
        String second = follow(c, unescape(next.group(1))).then().statusCode(200).extract().asString();
        List<String> page2 = linked(second);
        assertEquals(List.of("m06", "m05", "m04", "m03", "m02", "m01", "m00"), page2);
        assertFalse(second.contains("rel=\"next\""), "the last page");

        String bank = c.get("/console/stores/" + s + "/memories?bank=team").asString();
        Matcher bankNext = Pattern.compile("href=\"([^\"]+)\" rel=\"next\"").matcher(bank);
        assertTrue(bankNext.find());
        assertTrue(unescape(bankNext.group(1)).contains("bank=team&after="), "the next page keeps the filters");
        c.get("/console/stores/" + s + "/memories?after=nonsense").then().statusCode(422);
    }

    @Test
    void archiveAndSupersedeChangeTheMemoryAndWriteTheirJournalRecords() {
        String s = store();
        save(s, "old", "user:alice", "fact", "Alice lives in Leeds.", 0.6, "");
        save(s, "new", "user:alice", "fact", "Alice lives in York.", 0.6, "");
        String writer = ConsoleApiTest.issue("mcon-writer-" + s, "[{\"stores\": \"" + s + "\", \"role\": \"write\"}]");
        ConsoleClient c = ConsoleClient.signIn(writer);
        String page = "/console/stores/" + s + "/memories/old";
        assertTrue(c.get(page).asString().contains("action=\"" + page + "/archive\""), "a writer sees the forms");

        Response archived = c.post(page + "/archive", "reason", "moved away");
        assertEquals(303, archived.statusCode(), archived.asString());
        assertTrue(archived.header("Location").endsWith(page + "?changed=archived"), archived.header("Location"));
        JsonPath m = given().get("/v1/stores/" + s + "/memories/old").jsonPath();
        assertTrue(m.getBoolean("archived"));
        assertEquals("moved away", m.getString("archive_reason"));
        String shown = c.get(page + "?changed=archived").asString();
        assertTrue(shown.contains("Archived. The journal records the change.") && shown.contains("moved away"));

        assertEquals(303, c.post(page + "/unarchive").statusCode());
        assertFalse(given().get("/v1/stores/" + s + "/memories/old").jsonPath().getBoolean("archived"));

        assertEquals(303, c.post(page + "/supersede", "by", "new").statusCode());
        m = given().get("/v1/stores/" + s + "/memories/old").jsonPath();
        assertEquals("new", m.getString("superseded_by"));
        assertNotEquals(null, m.getString("valid_to"));
        assertEquals(List.of("memory.saved", "memory.saved", "memory.archived", "memory.unarchived",
                "memory.superseded"), journalKinds(s));

        Response refused = c.post(page + "/supersede", "by", "nowhere");
        assertEquals(422, refused.statusCode());
        assertTrue(refused.asString().contains("Nothing was changed"), refused.asString());
        assertEquals(5, journalKinds(s).size(), "a refused supersede writes nothing");
        assertEquals("new", given().get("/v1/stores/" + s + "/memories/old").jsonPath().getString("superseded_by"));

        // A reason over the API's bound is refused on the page as the API refuses it, and archives nothing.
        Response long_ = c.post(page + "/archive", "reason", "r".repeat(1001));
        assertEquals(422, long_.statusCode());
        assertTrue(long_.asString().contains("reason takes at most 1000 characters."), long_.asString());
        json().body("{\"reason\": \"" + "r".repeat(1001) + "\"}").post("/v1/stores/" + s + "/memories/old/archive")
                .then().statusCode(422).body("rule", org.hamcrest.Matchers.equalTo("text-size"));
        assertEquals(5, journalKinds(s).size(), "a refused archive writes nothing");
    }

    @Test
    void aReadOnlyKeySeesNoFormAndItsFormsWriteNothing() {
        String s = store();
        save(s, "m1", "user:alice", "fact", "Alice likes tea.", 0.6, "\"tags\": [\"drinks\", \"tea\"]");
        save(s, "m2", "user:alice", "fact", "Alice likes green tea.", 0.6, "\"tags\": [\"drinks\", \"tea\"]");
        String reader = ConsoleApiTest.issue("mcon-reader-" + s, "[{\"stores\": \"" + s + "\", \"role\": \"read\"}]");
        ConsoleClient c = ConsoleClient.signIn(reader);
        String memory = c.get("/console/stores/" + s + "/memories/m1").then().statusCode(200).extract().asString();
        assertTrue(memory.contains("Alice likes tea."));
        assertFalse(memory.contains("method=\"post\" action=\"/console/stores/" + s), "no form: " + memory);
        String bank = c.get("/console/stores/" + s + "/banks/user:alice").then().statusCode(200).extract()
                .asString();
        assertFalse(bank.contains("/reflect\""), "no reflect form");

        List<String> before = journalKinds(s);
        assertEquals(403, c.post("/console/stores/" + s + "/memories/m1/archive", "reason", "x").statusCode());
        assertEquals(403, c.post("/console/stores/" + s + "/memories/m1/supersede", "by", "m2").statusCode());
        assertEquals(403, c.post("/console/stores/" + s + "/memories/m1/unarchive").statusCode());
        assertEquals(403, c.post("/console/stores/" + s + "/banks/user:alice/reflect").statusCode());
        ConsoleClient admin = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        assertEquals(403, admin.request().formParam("reason", "x").post("/console/stores/" + s
                + "/memories/m1/archive").statusCode(), "a form without the session's token");
        assertEquals(before, journalKinds(s), "nothing written");
        JsonPath m = given().get("/v1/stores/" + s + "/memories/m1").jsonPath();
        assertFalse(m.getBoolean("archived"));
        assertEquals("", m.getString("superseded_by"));
        assertEquals(2, given().get("/v1/stores/" + s + "/memories").jsonPath().getInt("total"),
                "no reflection landed");
    }

    @Test
    void theRecallPlaygroundShowsEachResultsBreakdownAsTheApiExplainsIt() {
        String s = store();
        save(s, "apollo-1", "user:alice", "fact", "Apollo ships on Friday.", 0.8, "");
        save(s, "apollo-2", "user:alice", "fact", "The Apollo launch slipped a week.", 0.4, "");
        save(s, "trivia", "user:alice", "fact", "Alice likes green tea.", 0.5, "");
        JsonPath api = new JsonPath(json().body("{\"query\": \"apollo friday\", \"banks\": [\"user:alice\"], "
                + "\"explain\": true}").post("/v1/stores/" + s + "/memories/search").asString())
                .using(new JsonPathConfig(JsonPathConfig.NumberReturnType.DOUBLE));
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String page = c.get("/console/stores/" + s + "/recall?query=apollo+friday&banks=user:alice").then()
                .statusCode(200).extract().asString();
        List<String> ids = api.getList("results.memory.id");
        assertEquals(List.of("apollo-1", "apollo-2"), ids);
        int first = page.indexOf("<code>apollo-1</code>");
        int second = page.indexOf("<code>apollo-2</code>");
        assertTrue(first > 0 && second > first, "the API's order");
        assertFalse(page.contains("<code>trivia</code>"));
        for (String part : List.of("Lexical (BM25)", "Match", "Context", "Fused", "Importance ×", "Recency ×")) {
            assertTrue(page.contains("<th scope=\"col\">" + part + "</th>"), part);
        }
        for (int i = 0; i < 2; i++) {
            String row = page.substring(i == 0 ? first : second);
            row = row.substring(0, row.indexOf("</tr>"));
            for (String part : List.of("score", "explain.lexical", "explain.match", "explain.fused",
                    "explain.importance", "explain.recency")) {
                String value = String.format(Locale.ROOT, "%.3f", api.getDouble("results[" + i + "]." + part));
                assertTrue(row.contains(">" + value), part + " of result " + i + " is " + value + ": " + row);
            }
            assertEquals(10, row.split("<svg class=\"bar\"").length, "a bar for the score and each of its 8 parts");
        }
        assertTrue(page.contains("no embedding model is configured: ranked lexically"), "the ranking's note");
        c.get("/console/stores/" + s + "/recall?query=apollo&ranking=best").then().statusCode(422);
        String seed = c.get("/console/stores/" + s + "/recall?query=apollo&ranking=seed").then().statusCode(200)
                .extract().asString();
        assertTrue(seed.contains("gives no breakdown") && seed.contains("<code>apollo-1</code>"), seed);
        assertEquals(List.of("memory.saved", "memory.saved", "memory.saved"), journalKinds(s),
                "a search writes nothing");
    }

    @Test
    void aBanksPageShowsItsEntrypointAndContextStringAndReflectsIt() {
        String s = store();
        for (int i = 1; i <= 3; i++) {
            save(s, "f" + i, "user:alice", "fact", "Apollo fact " + i + ".", 0.5, "\"tags\": [\"apollo\"]");
        }
        json().body("{\"text\": \"Be brief.\"}").put("/v1/stores/" + s + "/banks/user:alice/slots/SOUL").then()
                .statusCode(200);
        json().body("{\"text\": \"Use the shell.\"}").put("/v1/stores/" + s + "/banks/user:alice/slots/TOOLS")
                .then().statusCode(200);
        json().body("{\"mission\": \"Keep Apollo on track\", \"directives\": [\"cite sources\"], \"skepticism\": 3}")
                .put("/v1/stores/" + s + "/banks/user:alice/config").then().statusCode(200);
        String context = given().get("/v1/stores/" + s + "/banks/user:alice/context").asString();
        String entrypoint = given().get("/v1/stores/" + s + "/banks/user:alice/entrypoint").asString();
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String path = "/console/stores/" + s + "/banks/user:alice";
        String page = c.get(path).then().statusCode(200).extract().asString();
        assertTrue(unescape(page).contains(">" + context + "</pre>"), "the context string");
        String withoutTime = entrypoint.replaceAll("- Generated: [^\\n]+\\n", "");
        String shown = unescape(page).replaceAll("- Generated: [^\\n]+\\n", "");
        assertTrue(shown.contains(withoutTime), "the entrypoint: " + entrypoint);
        assertTrue(page.contains("Keep Apollo on track") && page.contains("cite sources") && page.contains("3 of 10"));
        assertTrue(page.contains("<code>SOUL</code>") && page.contains("<code>TOOLS</code>"), "the slots");

        Response reflected = c.post(path + "/reflect", "reflector", "deterministic");
        assertEquals(303, reflected.statusCode(), reflected.asString());
        String after = follow(c, reflected.header("Location")).then().statusCode(200).extract().asString();
        assertTrue(after.contains("The deterministic reflector reviewed 3 new facts: 1 observation created"), after);
        String observation = given().get("/v1/stores/" + s + "/memories?type=observation").jsonPath()
                .getString("memories[0].id");
        assertTrue(after.contains("<code>" + observation + "</code>"), "the observation it saved");

        for (int i = 4; i <= 5; i++) {
            save(s, "f" + i, "user:alice", "fact", "Apollo fact " + i + ".", 0.5, "\"tags\": [\"apollo\"]");
        }
        String again = follow(c, c.post(path + "/reflect").header("Location")).asString();
        assertTrue(again.contains("reviewed 2 new facts: 0 observations created, 1 replacing an older one"), again);
        assertTrue(again.contains("Observations it superseded") && again.contains("<code>" + observation
                + "</code>"), "what it superseded");
        String forged = c.get(path + "?reflected=<b>x</b>&created=9&new=f1").asString();
        assertFalse(forged.contains("Reflection done"), "a result no reflector made is not shown");
    }

    @Test
    void agentTextIsEscapedOnEveryPage() {
        String s = store();
        String evil = "<script>alert(1)</script> [a](javascript:alert(2)) <img src=x onerror=alert(3)>";
        save(s, "x", "user:alice", "fact", evil, 0.5, "\"tags\": [\"<b onmouseover=alert(4)>t</b>\"], "
                + "\"evidence\": [\"<i>src</i>\"], \"source\": \"inferred\"");
        json().body("{\"text\": \"<script>alert(5)</script>\"}").put("/v1/stores/" + s
                + "/banks/user:alice/slots/SOUL").then().statusCode(200);
        put(s, "user", "note", "{\"content\": \"<script>alert(6)</script>\"}").then().statusCode(201);
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        for (String path : List.of("/memories", "/memories/x", "/banks/user:alice", "/recall?query=alert",
                "/render?scope=user")) {
            String page = c.get("/console/stores/" + s + path).then().statusCode(200).extract().asString();
            assertFalse(page.contains("<script>alert"), path + ": " + page);
            assertFalse(page.contains("<b onmouseover"), path);
            assertFalse(page.contains("<img"), path);
            assertFalse(page.contains("href=\"javascript:"), path);
            assertFalse(page.contains("<i>src</i>"), path);
            assertTrue(page.contains("&lt;script&gt;alert("), path + " shows the text: " + page);
        }
    }
}
