package dev.engram.entries.rest;

import dev.engram.rest.Api;
import dev.engram.journal.rest.JournalResource;
import static dev.engram.rest.Api.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A page ends early, with its continuation, once it carries {@code engram.limits.page-bytes} (8 MiB) of content,
 * however many items the request asked for; the next page goes on from there, with no gap and no duplicate.
 */
@QuarkusTest
class PageBytesTest {

    private static final int ENTRY = 256 * 1024;
    private static final int PAGE_BYTES = 8 * 1024 * 1024;
    private static final int COUNT = 40;

    @Test
    void entriesAndJournalPagesEndAtTheByteBoundAndContinue() {
        String s = Api.newStore();
        json().body("{\"max_entry_bytes\":" + ENTRY + "}").put("/v1/stores/" + s).then().statusCode(201);
        String content = "x".repeat(ENTRY);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < COUNT; i++) {
            String name = String.format("e%03d", i);
            names.add(name);
            Api.put(s, "user", name, "{\"content\":\"" + content + "\"}").then().statusCode(201);
        }

        List<String> listed = new ArrayList<>();
        String after = "";
        int pages = 0;
        while (true) {
            JsonPath page = json().queryParam("limit", 1000).queryParam("after", after)
                    .get("/v1/stores/" + s + "/scopes/user/entries").then().statusCode(200).extract().jsonPath();
            List<String> got = page.getList("entries.name");
            assertTrue(got.size() * (long) ENTRY <= PAGE_BYTES, "a page of " + got.size() + " entries");
            listed.addAll(got);
            pages++;
            if (!page.getBoolean("more")) {
                break;
            }
            after = page.getString("next");
            assertEquals(got.get(got.size() - 1), after);
        }
        assertEquals(names, listed);
        assertTrue(pages > 1, "the 10 MiB of entries came in one page");

        List<Long> seqs = new ArrayList<>();
        long cursor = 0;
        while (true) {
            JsonPath page = json().accept("application/json").queryParam("limit", 1000).queryParam("after", cursor)
                    .get("/v1/stores/" + s + "/journal").then().statusCode(200).extract().jsonPath();
            List<Long> got = page.getList("records.seq", Long.class);
            assertTrue(got.size() * (long) ENTRY <= PAGE_BYTES, "a page of " + got.size() + " records");
            seqs.addAll(got);
            cursor = page.getLong("next");
            if (!page.getBoolean("more")) {
                break;
            }
        }
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= COUNT; i++) {
            expected.add(i);
        }
        assertEquals(expected, seqs);

        JsonPath found = json().queryParam("q", "xxxx").queryParam("limit", 200).get("/v1/stores/" + s + "/search")
                .then().statusCode(200).extract().jsonPath();
        assertEquals(PAGE_BYTES / ENTRY, found.getList("entries").size(), "a search ends at the byte bound");
        assertTrue(found.getBoolean("truncated"), "and says so");
        JsonPath narrow = json().queryParam("q", "xxxx").queryParam("limit", 3).get("/v1/stores/" + s + "/search")
                .then().statusCode(200).extract().jsonPath();
        assertEquals(3, narrow.getList("entries").size());
        assertTrue(narrow.getMap("$").get("truncated") == null, "a search its limit ended is not truncated");
        assertTrue(narrow.getBoolean("more"), "but says more follow");

        List<String> ranked = new ArrayList<>();
        int offset = 0;
        while (true) {
            JsonPath page = json().queryParam("q", "xxxx").queryParam("order", "relevance").queryParam("limit", 200)
                    .queryParam("offset", offset).get("/v1/stores/" + s + "/search").then().statusCode(200)
                    .extract().jsonPath();
            List<String> got = page.getList("entries.name");
            assertTrue(got.size() * (long) ENTRY <= PAGE_BYTES, "a ranked page of " + got.size() + " entries");
            ranked.addAll(got);
            offset += got.size();
            if (page.getMap("$").get("more") == null) {
                break;
            }
            assertTrue(page.getBoolean("truncated"), "a ranked page ends at the byte bound, not its limit");
        }
        assertEquals(names, ranked, "pages by offset of a ranking of equal scores: every hit once, by name");

        String lines = json().accept(JournalResource.NDJSON).get("/v1/stores/" + s + "/journal").then()
                .statusCode(200).extract().asString();
        assertEquals(COUNT, lines.lines().count(), "NDJSON streams every record, a bounded page at a time");
    }
}
