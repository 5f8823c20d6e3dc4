package dev.engram.entries.rest;

import dev.engram.rest.Api;
import static dev.engram.rest.Api.json;
import static dev.engram.rest.Api.put;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** Every list answers a page at a time with a cursor, and every read that could grow without bound has a cap. */
@QuarkusTest
class PagingApiTest {

    @Test
    void aScopeListsAPageAtATimeByName() {
        String s = Api.newStore();
        for (String name : new String[] {"echo", "alpha", "delta", "bravo", "charlie"}) {
            put(s, "user", name, "{\"content\":\"" + name + "\"}").then().statusCode(201);
        }
        String list = "/v1/stores/" + s + "/scopes/user/entries";
        given().get(list + "?limit=2").then().statusCode(200)
                .body("entries.name", contains("alpha", "bravo")).body("next", equalTo("bravo"))
                .body("more", equalTo(true));
        given().get(list + "?limit=2&after=bravo").then().statusCode(200)
                .body("entries.name", contains("charlie", "delta")).body("more", equalTo(true));
        given().get(list + "?limit=2&after=delta").then().statusCode(200)
                .body("entries.name", contains("echo")).body("next", nullValue()).body("more", equalTo(false));
        given().get(list).then().statusCode(200).body("entries.size()", equalTo(5)).body("more", equalTo(false));
        given().get(list + "?limit=0").then().statusCode(422).body("field", equalTo("limit"));
        given().get(list + "?limit=1001").then().statusCode(422).body("field", equalTo("limit"));
        given().get(list + "?after=Not%20A%20Name").then().statusCode(422).body("rule", equalTo("name-format"));
    }

    @Test
    void lostUpdatesComeAPageAtATimeAndEachPageJudgesAsTheWholeListDoes() {
        String s = Api.newStore();
        String first = put(s, "user", "plan", "{\"content\":\"v1\"}").then().statusCode(201).extract()
                .path("entry.hash");
        for (int i = 2; i <= 4; i++) {
            // Each write claims to be built on v1, which the one before it had already replaced: a lost update.
            json().header("Engram-Based-On", first).body("{\"content\":\"v" + i + "\"}")
                    .put(Api.entry(s, "user", "plan")).then().statusCode(200);
        }
        String path = "/v1/stores/" + s + "/lost-updates";
        given().get(path).then().statusCode(200).body("lost_updates.change.seq", contains(3, 4))
                .body("more", equalTo(false));
        given().get(path + "?limit=1").then().statusCode(200).body("lost_updates.change.seq", contains(3))
                .body("next", equalTo(3)).body("more", equalTo(true));
        given().get(path + "?limit=1&from=3").then().statusCode(200).body("lost_updates.change.seq", contains(4))
                .body("more", equalTo(false));
        given().get(path + "?after=2&from=1").then().statusCode(422).body("field", equalTo("from"));
    }

    @Test
    void aSessionsManifestLogComesAPageAtATime() {
        String s = Api.newStore();
        String render = "/v1/stores/" + s + "/sessions/slack-7f3a/render?scope=user";
        for (int i = 0; i < 3; i++) {
            put(s, "user", "fact-" + i, "{\"content\":\"Fact " + i + ".\"}").then().statusCode(201);
            given().contentType("application/json").post(render).then().statusCode(200)
                    .header("Engram-Manifest-Recorded", "true");
        }
        String log = "/v1/stores/" + s + "/sessions/slack-7f3a/manifests";
        String inForce = given().get(log).then().statusCode(200).body("records.seq", contains(1, 2, 3))
                .extract().path("manifest_hash");
        given().get(log + "?limit=2").then().statusCode(200).body("records.seq", contains(1, 2))
                .body("next", equalTo(2)).body("more", equalTo(true)).body("manifest_hash", equalTo(inForce));
        given().get(log + "?limit=2&after=2").then().statusCode(200).body("records.seq", contains(3))
                .body("more", equalTo(false));
    }

    @Test
    void aSearchOverTheWordOrLengthCapIsRefusedWithTheNumbers() {
        String s = Api.newStore();
        put(s, "user", "a", "{\"content\":\"one two\"}").then().statusCode(201);
        String sixteen = String.join(" ", Collections.nCopies(16, "one"));
        String search = "/v1/stores/" + s + "/search";
        given().queryParam("q", sixteen).get(search).then().statusCode(200).body("entries.size()", equalTo(1));
        given().queryParam("q", sixteen + " two").get(search).then().statusCode(422)
                .body("rule", equalTo("query-words"));
        given().queryParam("q", "o".repeat(1001)).get(search).then().statusCode(422)
                .body("rule", equalTo("query-length"));
    }

    @Test
    void aRenderOverTheCeilingIsRefused() {
        String s = Api.newStore();
        put(s, "user", "a", "{\"content\":\"one\"}").then().statusCode(201);
        given().get("/v1/stores/" + s + "/render?scope=user&max_total_bytes=1048576").then().statusCode(200);
        given().get("/v1/stores/" + s + "/render?scope=user&max_total_bytes=1048577").then().statusCode(422)
                .body("field", equalTo("max_total_bytes"));
        given().get("/v1/stores/" + s + "/render?scope=user&scope_max_bytes=user:1048577").then().statusCode(422)
                .body("field", equalTo("scope_max_bytes"));
    }
}
