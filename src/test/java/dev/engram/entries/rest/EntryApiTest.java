package dev.engram.entries.rest;

import dev.engram.rest.Api;
import static dev.engram.rest.Api.entry;
import static dev.engram.rest.Api.json;
import static dev.engram.rest.Api.put;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.emptyString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.entries.Hash;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Entries over HTTP: create, read with ETag, conditional writes, patch, forget, list. */
@QuarkusTest
class EntryApiTest {

    @Test
    void putCreatesWith201ThenReplacesWith200AndReturnsTheJournalRecord() {
        String s = Api.newStore();
        String h1 = Hash.of("Short answers.\n");
        put(s, "user", "style", "{\"content\":\"Short answers.\\n\",\"meta\":{\"description\":\"How to answer\"}}")
                .then().statusCode(201)
                .header("ETag", Api.quoted(Hash.version(h1, Map.of("description", "How to answer"))))
                .header("Location", equalTo(entry(s, "user", "style")))
                .body("seq", equalTo(1))
                .body("entry.scope", equalTo("user"))
                .body("entry.name", equalTo("style"))
                .body("entry.meta.description", equalTo("How to answer"))
                .body("entry.hash", equalTo(h1))
                .body("$", not(hasKey("prev")))
                .body("$", not(hasKey("replaced")))
                .body("entry", not(hasKey("deleted")))
                .body("at", notNullValue());
        put(s, "user", "style", "{\"content\":\"Long answers.\"}")
                .then().statusCode(200)
                .body("seq", equalTo(2))
                .body("replaced", equalTo(h1))
                .body("prev", equalTo(h1))
                .body("entry", not(hasKey("meta")));
    }

    @Test
    void getReturnsTheEntryWithItsVersionAsETagAnd304WhenUnchanged() {
        String s = Api.newStore();
        put(s, "user", "timezone", "{\"content\":\"Europe/London\"}").then().statusCode(201);
        String etag = Api.quoted(Hash.version(Hash.of("Europe/London"), Map.of()));
        given().get(entry(s, "user", "timezone")).then().statusCode(200)
                .header("ETag", etag)
                .body("content", equalTo("Europe/London"))
                .body("hash", equalTo(Hash.of("Europe/London")))
                .body("updated", notNullValue());
        given().header("If-None-Match", etag).get(entry(s, "user", "timezone")).then().statusCode(304)
                .body(emptyString());
        given().get(entry(s, "user", "nothing")).then().statusCode(404)
                .contentType("application/problem+json")
                .body("type", equalTo("https://engram.dev/problems/not-found"));
    }

    @Test
    void ifMatchWritesOnlyOnTheStateReadAndAConflictSaysWhatIsThere() {
        String s = Api.newStore();
        String h1 = put(s, "user", "a", "{\"content\":\"one\"}").then().statusCode(201).extract().header("ETag");
        json().header("If-Match", h1).body("{\"content\":\"two\"}").put(entry(s, "user", "a"))
                .then().statusCode(200).body("prev", equalTo(Hash.of("one")));
        json().header("If-Match", h1).body("{\"content\":\"three\"}").put(entry(s, "user", "a"))
                .then().statusCode(412)
                .contentType("application/problem+json")
                .body("type", equalTo("https://engram.dev/problems/precondition-failed"))
                .body("want", equalTo(Hash.version(Hash.of("one"), Map.of())))
                .body("have", equalTo(Hash.version(Hash.of("two"), Map.of())))
                .body("detail", containsString("Read it again"));
        given().get(entry(s, "user", "a")).then().body("content", equalTo("two"));
    }

    @Test
    void ifNoneMatchStarCreatesOnlyWhenAbsent() {
        String s = Api.newStore();
        json().header("If-None-Match", "*").body("{\"content\":\"one\"}").put(entry(s, "user", "a"))
                .then().statusCode(201);
        json().header("If-None-Match", "*").body("{\"content\":\"two\"}").put(entry(s, "user", "a"))
                .then().statusCode(412).body("want", equalTo(""))
                .body("have", equalTo(Hash.version(Hash.of("one"), Map.of())));
    }

    @Test
    void basedOnAndSessionAreRecordedAndLostUpdatesReportsTheFork() {
        String s = Api.newStore();
        String base = Hash.of("Prefers short answers.\n");
        put(s, "user", "style", "{\"content\":\"Prefers short answers.\\n\"}").then().statusCode(201);
        json().header("Engram-Based-On", base).header("Engram-Session", "telegram-c91e")
                .body("{\"content\":\"Short answers & tabs.\\n\"}").put(entry(s, "user", "style"))
                .then().statusCode(200).body("session", equalTo("telegram-c91e")).body("prev", equalTo(base));
        json().header("Engram-Based-On", Api.quoted(base)).header("Engram-Session", "slack-7f3a")
                .body("{\"content\":\"Short answers. Bristol.\\n\"}").put(entry(s, "user", "style"))
                .then().statusCode(200).body("replaced", equalTo(Hash.of("Short answers & tabs.\n")));
        given().get("/v1/stores/" + s + "/lost-updates").then().statusCode(200)
                .body("lost_updates.size()", equalTo(1))
                .body("lost_updates[0].change.seq", equalTo(3))
                .body("lost_updates[0].change.session", equalTo("slack-7f3a"))
                .body("lost_updates[0].over", equalTo(Hash.of("Short answers & tabs.\n")));
        given().get("/v1/stores/" + s + "/lost-updates?after=2").then().body("lost_updates.size()", equalTo(0));
    }

    @Test
    void deleteWritesATombstoneAndTheEntryLeavesReads() {
        String s = Api.newStore();
        put(s, "user", "editor", "{\"content\":\"Uses neovim.\\n\"}").then().statusCode(201);
        given().header("If-Match", Api.quoted(Hash.version(Hash.of("stale"), Map.of())))
                .delete(entry(s, "user", "editor"))
                .then().statusCode(412);
        given().header("Engram-Session", "slack-7f3a").delete(entry(s, "user", "editor"))
                .then().statusCode(200)
                .body("seq", equalTo(2))
                .body("entry.deleted", equalTo(true))
                .body("entry.content", equalTo("Uses neovim.\n"))
                .body("replaced", equalTo(Hash.of("Uses neovim.\n")))
                .body("session", equalTo("slack-7f3a"));
        given().get(entry(s, "user", "editor")).then().statusCode(404);
        given().delete(entry(s, "user", "editor")).then().statusCode(404);
    }

    @Test
    void patchReplacesExactlyOneOccurrence() {
        String s = Api.newStore();
        put(s, "project", "build", "{\"content\":\"Run make check before a commit.\",\"meta\":{\"type\":\"rule\"}}")
                .then().statusCode(201);
        json().body("{\"old_text\":\"make check\",\"new_text\":\"make verify\"}").patch(entry(s, "project", "build"))
                .then().statusCode(200)
                .header("ETag", Api.quoted(Hash.version(Hash.of("Run make verify before a commit."),
                        Map.of("type", "rule"))))
                .body("entry.content", equalTo("Run make verify before a commit."))
                .body("entry.meta.type", equalTo("rule"))
                .body("prev", equalTo(Hash.of("Run make check before a commit.")));
        json().body("{\"old_text\":\"e\",\"new_text\":\"E\"}").patch(entry(s, "project", "build"))
                .then().statusCode(422).body("rule", equalTo("patch-anchor-ambiguous"));
        json().body("{\"old_text\":\"gradle\",\"new_text\":\"maven\"}").patch(entry(s, "project", "build"))
                .then().statusCode(422).body("rule", equalTo("patch-anchor-missing"));
        json().body("{\"old_text\":\"a\",\"new_text\":\"b\"}").patch(entry(s, "project", "none"))
                .then().statusCode(404);
    }

    @Test
    void listAndSearchReadOneStoreOnly() {
        String s = Api.newStore();
        String other = Api.newStore();
        put(s, "user", "zeta", "{\"content\":\"Neovim\"}").then().statusCode(201);
        put(s, "user", "alpha", "{\"content\":\"emacs\"}").then().statusCode(201);
        put(s, "project", "build", "{\"content\":\"neovim config\"}").then().statusCode(201);
        put(other, "user", "beta", "{\"content\":\"neovim too\"}").then().statusCode(201);
        given().get("/v1/stores/" + s + "/scopes/user/entries").then().statusCode(200)
                .body("entries.name", contains("alpha", "zeta"));
        given().get("/v1/stores/" + s + "/scopes/nobody/entries").then().statusCode(200)
                .body("entries.size()", equalTo(0));
        given().queryParam("q", "NEOVIM").queryParam("scope", "user").queryParam("scope", "project")
                .get("/v1/stores/" + s + "/search").then().statusCode(200)
                .body("entries.name", contains("zeta", "build"));
        given().queryParam("q", "neovim").queryParam("limit", "1").get("/v1/stores/" + s + "/search")
                .then().body("entries.name", contains("build"));
        given().get("/v1/stores/" + s).then().statusCode(200)
                .body("seq", equalTo(3)).body("entries", equalTo(3))
                .body("scopes.user", equalTo(2)).body("max_entry_bytes", equalTo(4096));
    }

    @Test
    void readsOfAStoreNeverWrittenAre404() {
        String s = Api.newStore();
        for (String path : new String[] {"", "/scopes/user/entries", "/search?q=x", "/journal", "/lost-updates"}) {
            given().get("/v1/stores/" + s + path).then().statusCode(404)
                    .body("detail", containsString("created by its first write"));
        }
    }

    @Test
    void putStoreConfiguresTheBoundThatWritesMeet() {
        String s = Api.newStore();
        json().body("{\"max_entry_bytes\":8}").put("/v1/stores/" + s).then().statusCode(201)
                .body("max_entry_bytes", equalTo(8)).body("seq", equalTo(0));
        put(s, "user", "a", "{\"content\":\"123456789\"}").then().statusCode(413)
                .body("size", equalTo(9)).body("limit", equalTo(8)).body("stored", equalTo(-1));
        json().body("{\"max_entry_bytes\":16}").put("/v1/stores/" + s).then().statusCode(200)
                .body("max_entry_bytes", equalTo(16));
        put(s, "user", "a", "{\"content\":\"123456789\"}").then().statusCode(201);
        json().body("{}").put("/v1/stores/" + Api.newStore()).then().statusCode(201)
                .body("max_entry_bytes", equalTo(4096)).body("created_at", notNullValue());
    }

    @Test
    void theETagCoversMetaSoAMetaOnlyChangeIsSeenByReadsAndConditionalWrites() {
        String s = Api.newStore();
        String path = entry(s, "user", "style");
        String first = put(s, "user", "style", "{\"content\":\"Short answers.\",\"meta\":{\"description\":\"How\"}}")
                .then().statusCode(201).extract().header("ETag");
        String second = put(s, "user", "style", "{\"content\":\"Short answers.\",\"meta\":{\"description\":"
                + "\"How to answer\"}}").then().statusCode(200).body("entry.hash", equalTo(Hash.of("Short answers.")))
                .extract().header("ETag");
        assertNotEquals(first, second, "a meta-only change moves the ETag");
        given().header("If-None-Match", first).get(path).then().statusCode(200).header("ETag", second)
                .body("meta.description", equalTo("How to answer"));
        given().header("If-None-Match", second).get(path).then().statusCode(304);

        json().header("If-Match", first).body("{\"content\":\"Long answers.\",\"meta\":{\"description\":\"How\"}}")
                .put(path).then().statusCode(412).body("want", equalTo(unquote(first)))
                .body("have", equalTo(unquote(second)));
        json().header("If-Match", first).body("{\"old_text\":\"Short\",\"new_text\":\"Long\"}").patch(path)
                .then().statusCode(412);
        given().header("If-Match", first).delete(path).then().statusCode(412);
        given().get(path).then().statusCode(200).body("content", equalTo("Short answers."))
                .body("meta.description", equalTo("How to answer"));

        json().header("If-Match", Api.quoted(Hash.of("Short answers."))).body("{\"content\":\"Long answers.\"}")
                .put(path).then().statusCode(422).body("rule", equalTo("if-match-form"))
                .body("detail", containsString("ETag"));
        String third = json().header("If-Match", second).body("{\"old_text\":\"Short\",\"new_text\":\"Brief\"}")
                .patch(path).then().statusCode(200).body("entry.meta.description", equalTo("How to answer"))
                .extract().header("ETag");
        given().header("If-Match", third).delete(path).then().statusCode(200);
    }

    @Test
    void locationIsTheEntrysPathWhateverTheHostHeaderSays() {
        String s = Api.newStore();
        json().header("Host", "attacker.example:8443").body("{\"content\":\"x\"}").put(entry(s, "user", "a"))
                .then().statusCode(201).header("Location", equalTo(entry(s, "user", "a")));
    }

    @Test
    void sixteenConcurrentPatchesWithoutIfMatchAllLandAndKeepEveryEdit() throws Exception {
        int writers = 16;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 0; round < 3; round++) {
                String s = Api.newStore();
                StringBuilder content = new StringBuilder();
                for (int i = 0; i < writers; i++) {
                    content.append("slot-").append(i).append(": todo\\n");
                }
                put(s, "project", "tasks", "{\"content\":\"" + content + "\"}").then().statusCode(201);
                CountDownLatch go = new CountDownLatch(1);
                List<Future<io.restassured.response.Response>> results = new ArrayList<>();
                for (int i = 0; i < writers; i++) {
                    int slot = i;
                    results.add(pool.submit(() -> {
                        go.await();
                        return json().body("{\"old_text\":\"slot-" + slot + ": todo\",\"new_text\":\"slot-" + slot
                                + ": done\"}").patch(entry(s, "project", "tasks"));
                    }));
                }
                go.countDown();
                for (Future<io.restassured.response.Response> f : results) {
                    assertEquals(200, f.get().statusCode(), f.get().asString());
                }
                String after = given().get(entry(s, "project", "tasks")).then().extract().path("content");
                for (int i = 0; i < writers; i++) {
                    assertTrue(after.contains("slot-" + i + ": done\n"), after);
                }
            }
        } finally {
            pool.shutdown();
        }
    }

    private static String unquote(String etag) {
        return etag.substring(1, etag.length() - 1);
    }

    @Test
    void problemsCarryNoClassNamesOrTraces() {
        String s = Api.newStore();
        String body = put(s, "user", "a", "{\"content\":{\"nested\":true}}").then().statusCode(422)
                .body("field", equalTo("content")).extract().asString();
        org.junit.jupiter.api.Assertions.assertFalse(body.contains("java."), body);
        org.junit.jupiter.api.Assertions.assertFalse(body.contains("com.fasterxml"), body);
        org.junit.jupiter.api.Assertions.assertFalse(body.contains("Exception"), body);
        given().get("/v1/stores/" + s + "/scopes/user/entries/a").then().body("stack", nullValue());
    }
}
