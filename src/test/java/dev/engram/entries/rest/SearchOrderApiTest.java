package dev.engram.entries.rest;

import dev.engram.rest.Api;
import dev.engram.tools.rest.ToolsApiTest;
import static dev.engram.rest.Api.put;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

/** A search's order over HTTP: by name unless asked, best first with order=relevance, paged by offset. */
@QuarkusTest
class SearchOrderApiTest {

    private static String store() {
        String s = Api.newStore();
        put(s, "user", "alpha", "{\"content\":\"The deploy script runs after review, then the team waits.\"}")
                .then().statusCode(201);
        put(s, "user", "beta", "{\"content\":\"Deploy, deploy, deploy: deploy on green.\"}").then().statusCode(201);
        put(s, "project", "ci", "{\"content\":\"Deploy twice: deploy.\"}").then().statusCode(201);
        put(s, "project", "docs", "{\"content\":\"Nothing here about shipping.\"}").then().statusCode(201);
        return s;
    }

    @Test
    void relevanceListsTheSameHitsBestFirstAndPagesByOffset() {
        String s = store();
        String search = "/v1/stores/" + s + "/search";
        given().queryParam("q", "deploy").get(search).then().statusCode(200)
                .body("entries.name", contains("ci", "alpha", "beta"));
        given().queryParam("q", "deploy").queryParam("order", "name").get(search).then().statusCode(200)
                .body("entries.name", contains("ci", "alpha", "beta")).body("$", not(hasKey("more")));
        given().queryParam("q", "DEPLOY").queryParam("order", "relevance").get(search).then().statusCode(200)
                .body("entries.name", contains("beta", "ci", "alpha"));
        given().queryParam("q", "deploy").queryParam("order", "relevance").queryParam("scope", "user")
                .get(search).then().statusCode(200).body("entries.name", contains("beta", "alpha"));
        given().queryParam("q", "deploy").queryParam("order", "relevance").queryParam("limit", 1).get(search)
                .then().statusCode(200).body("entries.name", contains("beta")).body("more", equalTo(true))
                .body("$", not(hasKey("truncated")));
        given().queryParam("q", "deploy").queryParam("order", "relevance").queryParam("limit", 1)
                .queryParam("offset", 1).get(search).then().statusCode(200).body("entries.name", contains("ci"))
                .body("more", equalTo(true));
        given().queryParam("q", "deploy").queryParam("order", "relevance").queryParam("limit", 5)
                .queryParam("offset", 2).get(search).then().statusCode(200).body("entries.name", contains("alpha"))
                .body("$", not(hasKey("more")));
        given().queryParam("q", "deploy").queryParam("limit", 2).queryParam("offset", 1).get(search).then()
                .statusCode(200).body("entries.name", contains("alpha", "beta")).body("$", not(hasKey("more")));
    }

    @Test
    void aBadOrderOrOffsetIsAProblemNamingTheChoices() {
        String s = store();
        String search = "/v1/stores/" + s + "/search";
        given().queryParam("q", "deploy").queryParam("order", "best").get(search).then().statusCode(422)
                .contentType("application/problem+json").body("rule", equalTo("order"))
                .body("field", equalTo("order")).body("detail", containsString("name, relevance"));
        given().queryParam("q", "deploy").queryParam("order", "RELEVANCE").get(search).then().statusCode(422)
                .body("rule", equalTo("order"));
        given().queryParam("q", "deploy").queryParam("offset", -1).get(search).then().statusCode(422)
                .body("rule", equalTo("number-range")).body("field", equalTo("offset"));
        given().queryParam("q", "deploy").queryParam("order", "relevance").get("/v1/stores/" + Api.newStore()
                + "/search").then().statusCode(404);
    }

    @Test
    void theSearchToolOrdersByRelevanceWhenTheCallAsks() {
        String s = store();
        JsonPath byName = ToolsApiTest.call(s, null, "{\"name\":\"memory_search\",\"scopes\":[\"user\"],"
                + "\"read_scopes\":[\"project\"],\"arguments\":{\"query\":\"deploy\"}}");
        assertTrue(byName.getString("output").startsWith("3 matches in user, project for \"deploy\".\n\nuser/alpha"),
                byName.getString("output"));
        JsonPath ranked = ToolsApiTest.call(s, null, "{\"name\":\"memory_search\",\"scopes\":[\"user\"],"
                + "\"read_scopes\":[\"project\"],\"search_order\":\"relevance\",\"arguments\":{\"query\":\"deploy\"}}");
        assertTrue(ranked.getString("output").startsWith("3 matches in user, project for \"deploy\", best match "
                + "first.\n\nuser/beta"), ranked.getString("output"));
        Api.json().body("{\"name\":\"memory_search\",\"scopes\":[\"user\"],\"search_order\":\"best\",\"arguments\":"
                + "{\"query\":\"deploy\"}}").post("/v1/stores/" + s + "/tools/call").then().statusCode(422)
                .body("rule", equalTo("order")).body("field", equalTo("search_order"));
    }
}
