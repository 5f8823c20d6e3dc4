package dev.engram.stores.rest;

import dev.engram.rest.Api;
import dev.engram.journal.rest.JournalApiTest;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.entries.Hash;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Erasure over HTTP: the entry leaves reads, every journal record of it is blank in PostgreSQL but keeps its seq and
 * hashes, the journal stays gapless, and the erasure record reaches a live follower.
 */
@QuarkusTest
class ErasureApiTest {

    @Inject
    AgroalDataSource db;

    @TestHTTPResource("/")
    URI base;

    static String erase(String store, String scope, String name) {
        return Api.entry(store, scope, name) + "/erase";
    }

    @Test
    void erasureBlanksTheJournalKeepsItGaplessAndAFollowerSeesTheRecord() throws Exception {
        String s = Api.newStore();
        Api.put(s, "user", "home", "{\"content\":\"Lives in Bristol.\",\"meta\":{\"description\":\"Where\"}}")
                .then().statusCode(201);
        Api.put(s, "user", "style", "{\"content\":\"Short answers.\"}").then().statusCode(201);
        Api.put(s, "user", "home", "{\"content\":\"Lives in Leeds.\",\"meta\":{\"description\":\"Where\"}}")
                .then().statusCode(200);
        JournalApiTest.Events follower = JournalApiTest.Events.open(HttpClient.newHttpClient(),
                base.resolve("/v1/stores/" + s + "/journal?after=3"), null);
        try {
            json().body("{\"reason\":\"Deletion request 118\"}").post(erase(s, "user", "home")).then()
                    .statusCode(200)
                    .body("seq", equalTo(4))
                    .body("kind", equalTo("erasure"))
                    .body("entry.scope", equalTo("user"))
                    .body("entry.name", equalTo("home"))
                    .body("entry.content", equalTo(""))
                    .body("entry.deleted", equalTo(true))
                    .body("replaced", equalTo(Hash.of("Lives in Leeds.")))
                    .body("erasure.by", equalTo("operator"))
                    .body("erasure.reason", equalTo("Deletion request 118"));
            JsonNode seen = follower.next();
            assertEquals(4, seen.get("seq").asInt());
            assertEquals("erasure", seen.get("kind").asText());
            assertEquals("Deletion request 118", seen.path("erasure").path("reason").asText());
        } finally {
            follower.close();
        }
        given().get(Api.entry(s, "user", "home")).then().statusCode(404);
        given().get("/v1/stores/" + s + "/search?q=bristol").then().body("entries.size()", equalTo(0));
        given().get("/v1/stores/" + s + "/journal").then().statusCode(200)
                .body("records[0].entry.content", equalTo(""))
                .body("records[0].entry.hash", equalTo(Hash.of("Lives in Bristol.")))
                .body("records[0].erased", equalTo(4))
                .body("records[1].entry.content", equalTo("Short answers."))
                .body("records[2].prev", equalTo(Hash.of("Lives in Bristol.")));

        List<String> rows = rows("select seq || '|' || content || '|' || meta::text || '|' || hash || '|' || "
                + "coalesce(erased_by::text, '-') || '|' || coalesce(erasure->>'reason', '-') from journal "
                + "where store_id = ? order by seq", s);
        assertEquals(List.of(
                "1||{}|" + Hash.of("Lives in Bristol.") + "|4|-",
                "2|Short answers.|{}|" + Hash.of("Short answers.") + "|-|-",
                "3||{}|" + Hash.of("Lives in Leeds.") + "|4|-",
                "4||{}||-|Deletion request 118"), rows);
        assertEquals(List.of("4"), rows("select seq::text from store where id = ?", s), "the store's seq is the last");
        assertEquals(List.of("style"), rows("select name from entry where store_id = ?", s));
        assertEquals(List.of("1"), rows("select entries::text from store where id = ?", s), "its count");
    }

    @Test
    void erasureTakesNoBodyAndAgainWithNothingLeftAnswersTheSameRecord() {
        String s = Api.newStore();
        Api.put(s, "user", "home", "{\"content\":\"Lives in Bristol.\"}").then().statusCode(201);
        json().post(erase(s, "user", "home")).then().statusCode(200).body("seq", equalTo(2))
                .body("erasure.reason", equalTo(""));
        json().post(erase(s, "user", "home")).then().statusCode(200).body("seq", equalTo(2));
        given().get("/v1/stores/" + s).then().body("seq", equalTo(2));
    }

    @Test
    void anErasureTakesOffTheStoresCountOnlyAnEntryThatWasLive() throws Exception {
        String s = Api.newStore();
        Api.put(s, "user", "home", "{\"content\":\"Lives in Bristol.\"}").then().statusCode(201);
        Api.put(s, "user", "style", "{\"content\":\"Short answers.\"}").then().statusCode(201);
        given().delete(Api.entry(s, "user", "style")).then().statusCode(200);
        assertEquals(List.of("1"), rows("select entries::text from store where id = ?", s), "after the forget");
        json().post(erase(s, "user", "style")).then().statusCode(200);
        assertEquals(List.of("1"), rows("select entries::text from store where id = ?", s), "a forgotten entry");
        json().post(erase(s, "user", "home")).then().statusCode(200);
        json().post(erase(s, "user", "home")).then().statusCode(200);
        assertEquals(List.of("0"), rows("select entries::text from store where id = ?", s), "a live one, once");
    }

    /** Creates, updates, forgets and erasures racing on a few names: the store's count stays its live rows. */
    @Test
    void racingWritesForgetsAndErasuresKeepTheStoresCountEqualToItsRows() throws Exception {
        String s = Api.newStore();
        Api.put(s, "user", "n-0", "{\"content\":\"first\"}").then().statusCode(201);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failed = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 4; t++) {
            int seed = t;
            threads.add(new Thread(() -> {
                java.util.Random random = new java.util.Random(seed);
                try {
                    for (int i = 0; i < 40; i++) {
                        String name = "n-" + random.nextInt(6);
                        int op = random.nextInt(5);
                        if (op < 3) {
                            Api.put(s, "user", name, "{\"content\":\"" + seed + "-" + i + "\"}").then()
                                    .statusCode(org.hamcrest.Matchers.oneOf(200, 201));
                        } else if (op == 3) {
                            given().delete(Api.entry(s, "user", name)).then()
                                    .statusCode(org.hamcrest.Matchers.oneOf(200, 404));
                        } else {
                            json().post(erase(s, "user", name)).then()
                                    .statusCode(org.hamcrest.Matchers.oneOf(200, 404));
                        }
                    }
                } catch (Throwable e) {
                    failed.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join(60_000);
        }
        assertEquals(List.of(), failed);
        assertEquals(rows("select count(*)::text from entry where store_id = ?", s),
                rows("select entries::text from store where id = ?", s));
    }

    @Test
    void erasureOfAnEntryOrStoreNeverHeldIs404() {
        String s = Api.newStore();
        Api.put(s, "user", "home", "{\"content\":\"Lives in Bristol.\"}").then().statusCode(201);
        json().post(erase(s, "user", "never")).then().statusCode(404)
                .body("type", equalTo("https://engram.dev/problems/not-found"));
        json().post(erase(Api.newStore(), "user", "home")).then().statusCode(404);
        given().get("/v1/stores/" + s).then().body("seq", equalTo(1));
    }

    private List<String> rows(String sql, String store) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = db.getConnection(); PreparedStatement p = c.prepareStatement(sql)) {
            p.setString(1, store);
            try (ResultSet r = p.executeQuery()) {
                while (r.next()) {
                    out.add(r.getString(1));
                }
            }
        }
        return out;
    }
}
