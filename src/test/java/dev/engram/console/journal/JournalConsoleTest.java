package dev.engram.console.journal;

import static dev.engram.rest.Api.put;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.TestAuth;
import dev.engram.console.ConsoleClient;
import dev.engram.entries.Entry;
import dev.engram.entries.PutOptions;
import dev.engram.entries.Store;
import dev.engram.entries.Stores;
import dev.engram.kernel.Scope;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The console's journal over HTTP, as a browser without script uses it: the timeline paged back and forth across a
 * long journal, an entry's history with its diffs, writers and sessions, a lost update marked with what it overwrote,
 * the grants (another tenant, a scope-limited key), agent text escaped in every kind of record; and the live stream,
 * whose events are the rows the page renders. The real browser's tests are in JournalConsoleBrowserTest.
 */
@QuarkusTest
class JournalConsoleTest {

    static final Pattern SEQ = Pattern.compile("data-seq=\"(\\d+)\"");
    static final Scope USER = new Scope("user");

    @Inject
    Stores stores;

    @TestHTTPResource("/")
    URI base;

    static String store() {
        return "jrn-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A new key of {@code grants} (a JSON array): its answer, with its {@code key} and {@code id}. */
    static Response issue(String name, String grants) {
        Response r = given().contentType("application/json").body("{\"name\": \"" + name + "-"
                + UUID.randomUUID().toString().substring(0, 6) + "\", \"grants\": " + grants + "}").post("/v1/keys");
        assertEquals(201, r.statusCode(), r.asString());
        return r;
    }

    static List<Long> seqs(String html) {
        List<Long> seqs = new ArrayList<>();
        Matcher m = SEQ.matcher(html);
        while (m.find()) {
            seqs.add(Long.parseLong(m.group(1)));
        }
        return seqs;
    }

    /** The link of rel {@code rel} on the page, unescaped, or null. */
    static String link(String html, String rel) {
        Matcher m = Pattern.compile("href=\"([^\"]+)\" rel=\"" + rel + "\"").matcher(html);
        return m.find() ? m.group(1).replace("&amp;", "&") : null;
    }

    /** The row of record {@code seq} as the page renders it. */
    static String row(String html, long seq) {
        Matcher m = Pattern.compile("<tr id=\"record-" + seq + "\".*?</tr>", Pattern.DOTALL).matcher(html);
        assertTrue(m.find(), "no row of record " + seq + " in " + html);
        return m.group();
    }

    @Test
    void theTimelinePagesBackAndForthByIndexAcrossALongJournal() {
        String s = store();
        Store store = stores.store(s);
        for (int i = 1; i <= 230; i++) {
            store.put(Entry.draft(USER, "n" + (i % 7), "line " + i, Map.of()), PutOptions.NONE.by("operator"));
        }
        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String first = c.get("/console/stores/" + s + "/journal").then().statusCode(200).extract().asString();
        List<Long> newest = seqs(first);
        assertEquals(50, newest.size());
        assertEquals(230L, newest.get(0));
        assertEquals(181L, newest.get(49));
        assertTrue(first.contains("data-live-journal=\"/console/stores/" + s + "/journal/live?after=230\""), first);
        assertNull(link(first, "prev"), "the newest page has nothing newer");

        List<Long> all = new ArrayList<>(newest);
        String page = first;
        int pages = 1;
        while (link(page, "next") != null) {
            page = c.get(link(page, "next")).then().statusCode(200).extract().asString();
            assertFalse(page.contains("data-live-journal"), "only the newest page follows the journal");
            all.addAll(seqs(page));
            pages++;
        }
        assertEquals(5, pages);
        List<Long> expected = new ArrayList<>();
        for (long i = 230; i >= 1; i--) {
            expected.add(i);
        }
        assertEquals(expected, all, "every record once, newest first");

        List<Long> forward = new ArrayList<>(seqs(page));
        while (link(page, "prev") != null) {
            page = c.get(link(page, "prev")).then().statusCode(200).extract().asString();
            forward.addAll(0, seqs(page));
        }
        assertEquals(expected, forward, "the newer links lead back to the newest record");
        assertEquals(List.of(110L, 109L, 108L), seqs(c.get("/console/stores/" + s + "/journal?before=111").asString())
                .subList(0, 3));
        assertEquals(List.of(60L, 59L), seqs(c.get("/console/stores/" + s + "/journal?after=10").asString())
                .subList(0, 2), "the page after a seq: the next records, shown newest first");
        c.get("/console/stores/" + s + "/journal?before=5&after=3").then().statusCode(422);
        c.get("/console/stores/" + s + "/journal?before=x").then().statusCode(422);
    }

    @Test
    void anEntrysHistoryShowsEachVersionsDiffWriterAndSession() {
        String s = store();
        Response issued = issue("journal-writer", "[{\"stores\": \"" + s + "\", \"role\": \"write\"}]");
        String key = issued.path("key");
        put(s, "user", "style", "{\"content\": \"Short answers.\\nIn English.\"}").then().statusCode(201);
        put(s, "user", "other", "{\"content\": \"Not this one.\"}").then().statusCode(201);
        given().header("Authorization", "Bearer " + key).header("Engram-Session", "slack-7f3a")
                .contentType("application/json").body("{\"content\": \"Short answers.\\nIn French.\"}")
                .put("/v1/stores/" + s + "/scopes/user/entries/style").then().statusCode(200);
        given().delete("/v1/stores/" + s + "/scopes/user/entries/style").then().statusCode(200);

        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String history = c.get("/console/stores/" + s + "/journal?scope=user&name=style").then().statusCode(200)
                .extract().asString();
        assertEquals(List.of(4L, 3L, 1L), seqs(history), "the entry's records only");
        assertTrue(history.contains("History of user/style"), history);
        String written = row(history, 3);
        assertTrue(written.contains("class=\"gone\">- In English.</span>"), written);
        assertTrue(written.contains("class=\"new\">+ In French.</span>"), written);
        assertTrue(written.contains("class=\"same\">  Short answers.</span>"), written);
        assertTrue(written.contains("<code>" + issued.path("id") + "</code>"), "the writer's key ID: " + written);
        assertTrue(written.contains("<td class=\"session\">slack-7f3a</td>"), written);
        assertTrue(row(history, 1).contains("<code>operator</code>"), row(history, 1));
        assertTrue(row(history, 1).contains("class=\"new\">+ Short answers.</span>"), "a create: all lines new");
        assertTrue(row(history, 4).contains(">forgotten<"), row(history, 4));
        assertFalse(row(history, 4).contains("class=\"diff\""), "a forget shows no diff");
        assertTrue(history.contains("href=\"/console/stores/" + s + "/scopes/user/entries/style\""), history);

        String scope = c.get("/console/stores/" + s + "/journal?scope=user").then().statusCode(200).extract()
                .asString();
        assertEquals(List.of(4L, 3L, 2L, 1L), seqs(scope));
        assertTrue(scope.contains("looked through records 1 to 4"), scope);
        c.get("/console/stores/" + s + "/journal?name=style").then().statusCode(422);
    }

    @Test
    void aLostUpdateIsMarkedWithWhatItOverwroteUnseen() {
        String s = store();
        String base = given().contentType("application/json").body("{\"content\": \"Prefers short answers.\"}")
                .put("/v1/stores/" + s + "/scopes/user/entries/style").then().statusCode(201).extract()
                .path("entry.hash");
        put(s, "user", "style", "{\"content\": \"Prefers short answers.\\nUses tabs.\"}").then().statusCode(200);
        given().header("Engram-Based-On", base).header("Engram-Session", "telegram-c91e")
                .contentType("application/json").body("{\"content\": \"Prefers short answers.\\nLives in Bristol.\"}")
                .put("/v1/stores/" + s + "/scopes/user/entries/style").then().statusCode(200);
        put(s, "user", "plain", "{\"content\": \"no loss here\"}").then().statusCode(201);

        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String timeline = c.get("/console/stores/" + s + "/journal").then().statusCode(200).extract().asString();
        String lost = row(timeline, 3);
        assertTrue(lost.contains("class=\"write lost\""), lost);
        assertTrue(lost.contains("<span class=\"badge lost\">lost update</span>"), lost);
        assertTrue(lost.contains("Built on the version of record 1, it overwrote record 2"), lost);
        assertTrue(lost.contains("The version it overwrote (record 2)"), lost);
        assertTrue(lost.contains("<span>Uses tabs.</span>"), "the overwritten content: " + lost);
        assertTrue(lost.contains("class=\"new\">+ Uses tabs.</span>"), "what the overwritten write added: " + lost);
        assertTrue(lost.contains("class=\"gone\">- Uses tabs.</span>"), "the write removed it: " + lost);
        assertFalse(row(timeline, 2).contains("lost"), row(timeline, 2));
        assertFalse(row(timeline, 4).contains("lost"), row(timeline, 4));

        String page = c.get("/console/stores/" + s + "/journal/lost").then().statusCode(200).extract().asString();
        assertEquals(List.of(3L), seqs(page), "the store's lost updates only");
        assertTrue(row(page, 3).contains("class=\"gone\">- Uses tabs.</span>"), row(page, 3));
        assertTrue(page.contains("looked through records 1 to 4"), page);
    }

    @Test
    void anotherTenantSeesNoStoreAndAScopeLimitedKeyOnlyItsScopesHistory() {
        String s = "acme-" + UUID.randomUUID().toString().substring(0, 8);
        put(s, "user", "style", "{\"content\": \"SECRET-user\"}").then().statusCode(201);
        put(s, "project", "build", "{\"content\": \"SECRET-project\"}").then().statusCode(201);
        ConsoleClient other = ConsoleClient.signIn(issue("journal-other", "[{\"stores\": \"other-*\", "
                + "\"role\": \"admin\"}]").path("key"));
        for (String path : List.of("", "?scope=user&name=style", "/lost")) {
            Response r = other.get("/console/stores/" + s + "/journal" + path);
            assertEquals(404, r.statusCode(), path);
            assertFalse(r.asString().contains("SECRET"), r.asString());
        }
        other.request().header("Accept", "text/event-stream").get("/console/stores/" + s + "/journal/live").then()
                .statusCode(404);

        ConsoleClient limited = ConsoleClient.signIn(issue("journal-limited", "[{\"stores\": \"acme-*\", "
                + "\"role\": \"write\", \"scopes\": [\"user\"]}]").path("key"));
        assertEquals(403, limited.get("/console/stores/" + s + "/journal").statusCode(), "the whole timeline");
        assertEquals(403, limited.get("/console/stores/" + s + "/journal/lost").statusCode());
        assertEquals(403, limited.get("/console/stores/" + s + "/journal?scope=project&name=build").statusCode());
        assertEquals(403, limited.request().header("Accept", "text/event-stream")
                .get("/console/stores/" + s + "/journal/live").statusCode());
        String history = limited.get("/console/stores/" + s + "/journal?scope=user&name=style").then()
                .statusCode(200).extract().asString();
        assertTrue(history.contains("SECRET-user"), history);
        String scope = limited.get("/console/stores/" + s + "/journal?scope=user").then().statusCode(200).extract()
                .asString();
        assertEquals(List.of(1L), seqs(scope));
        assertFalse(scope.contains("SECRET-project"), scope);

        ConsoleClient none = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        none.get("/console/stores/no-such-" + UUID.randomUUID().toString().substring(0, 6) + "/journal").then()
                .statusCode(404);
    }

    @Test
    void agentTextIsEscapedInEveryKindOfRecord() {
        String s = store();
        put(s, "user", "x", "{\"content\": \"<script>alert(1)</script>\\n<img src=x onerror=alert(2)>\"}").then()
                .statusCode(201);
        put(s, "user", "x", "{\"content\": \"<script>alert(3)</script>\"}").then().statusCode(200);
        given().contentType("application/json").body("{\"id\": \"m-1\", \"content\": \"<script>alert(4)</script>\"}")
                .post("/v1/stores/" + s + "/memories").then().statusCode(201);
        given().contentType("application/json").body("{}").put("/v1/stores/" + s + "/contexts/c-1").then()
                .statusCode(201);
        given().contentType("application/json").body("{\"steps\": [{\"thought\": \"<script>alert(5)</script>\", "
                + "\"action\": {\"id\": \"c1\", \"name\": \"<b>tool</b>\"}, \"observation\": \"out\"}]}")
                .post("/v1/stores/" + s + "/contexts/c-1/steps").then().statusCode(200);

        ConsoleClient c = ConsoleClient.signIn(TestAuth.OPERATOR_KEY);
        String html = c.get("/console/stores/" + s + "/journal").then().statusCode(200).extract().asString();
        assertFalse(html.contains("<script>alert"), html);
        assertFalse(html.contains("<img"), html);
        assertFalse(html.contains("<b>tool"), html);
        for (int i : new int[] {1, 3, 4, 5}) {
            assertTrue(html.contains("&lt;script&gt;alert(" + i + ")&lt;/script&gt;"), i + ": " + html);
        }
        assertTrue(html.contains("&lt;b&gt;tool&lt;/b&gt;"), "the tool's name: " + html);
        assertTrue(html.contains(">memory.saved<") && html.contains(">context.steps_appended<"), html);
        assertTrue(html.contains("1 step from #0, tools &lt;b&gt;tool&lt;/b&gt;"), html);
    }

    @Test
    void theLiveStreamSendsEachNewRecordAsTheRowThePageRenders() throws Exception {
        String s = store();
        put(s, "user", "style", "{\"content\": \"one\"}").then().statusCode(201);
        String session = ConsoleClient.trySignIn(TestAuth.OPERATOR_KEY).getCookie("engram_console");
        HttpRequest req = HttpRequest.newBuilder(base.resolve("/console/stores/" + s + "/journal/live?after=1"))
                .header("Accept", "text/event-stream").header("Cookie", "engram_console=" + session)
                .timeout(Duration.ofSeconds(20)).build();
        HttpResponse<InputStream> res = HttpClient.newHttpClient().send(req,
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, res.statusCode());
        String data = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8))) {
                put(s, "user", "style", "{\"content\": \"one\\n<script>two</script>\\r\\nthree\"}").then()
                        .statusCode(200);
                String event = null;
                String id = null;
                List<String> lines = new ArrayList<>();
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.startsWith("event:")) {
                        event = line.substring(6).strip();
                    } else if (line.startsWith("id:")) {
                        id = line.substring(3).strip();
                    } else if (line.startsWith("data:")) {
                        lines.add(line.substring(5).strip());
                    } else if (line.isEmpty() && "record".equals(event)) {
                        break;
                    } else if (line.isEmpty()) {
                        event = null;
                        lines.clear();
                    }
                }
                assertEquals(1, lines.size(), "one line of data an event: " + lines);
                String got = lines.get(0);
                assertEquals("2", id);
                return got;
            }
        });
        assertNotNull(data);
        assertTrue(data.startsWith("<tr id=\"record-2\""), data);
        assertFalse(data.contains("<script>"), data);
        String page = given().filter(TestAuth.NO_TOKEN).cookie("engram_console", session)
                .get("/console/stores/" + s + "/journal").asString();
        assertEquals(row(page, 2), data.replace("&#10;", "\n").replace("&#13;", "\r"),
                "the event is the row the page renders");
    }
}
