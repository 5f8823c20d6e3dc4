package dev.engram.memories.rest;

import dev.engram.rest.Api;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ranked recall over HTTP: the modes, the explanation, the bank's setting and the bounds of a query. */
@QuarkusTest
class RecallApiTest {

    static String memories(String store) {
        return "/v1/stores/" + store + "/memories";
    }

    static void save(String store, String id, String content) {
        json().body("{\"id\": \"" + id + "\", \"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"content\": \""
                + content + "\"}").post(memories(store)).then().statusCode(201);
    }

    static List<String> ids(String store, String body) {
        return JsonPath.from(json().body(body).post(memories(store) + "/search").then().statusCode(200).extract()
                .asString()).getList("results.memory.id");
    }

    @Test
    void theDefaultRankingWeighsRareWordsWhereTheSeedCountsEveryWordAlike() {
        String s = Api.newStore();
        save(s, "support", "Caroline went to the LGBTQ support group on Tuesday.");
        for (int i = 0; i < 8; i++) {
            save(s, "chat" + i, "Did you go to the park? The weather did go well " + i + ".");
        }
        String question = "When did Caroline go to the support group?";
        assertEquals("support", ids(s, "{\"query\": \"" + question + "\", \"ranking\": \"lexical\"}").get(0));
        List<String> seed = ids(s, "{\"query\": \"" + question + "\", \"ranking\": \"seed\"}");
        assertTrue(seed.size() > 1, seed.toString());
        assertEquals("support", ids(s, "{\"query\": \"" + question + "\"}").get(0), "hybrid is the default");
    }

    @Test
    void explainShowsHowEachScoreWasMadeAndOnlyWhenAsked() {
        String s = Api.newStore();
        save(s, "a", "The deployment pipeline runs on GitLab.");
        save(s, "b", "Coffee is restocked on Tuesdays.");
        String body = "{\"query\": \"gitlab pipelines\", \"ranking\": \"lexical\", \"explain\": true}";
        json().body(body).post(memories(s) + "/search").then().statusCode(200).body("results", hasSize(1))
                .body("results[0].explain.ranking", equalTo("lexical"))
                .body("results[0].explain.lexical", greaterThan(0f))
                .body("results[0].explain.lexical_rank", equalTo(1))
                .body("results[0].explain.semantic", nullValue())
                .body("results[0].explain.importance", notNullValue())
                .body("results[0].explain.recency", notNullValue());
        json().body("{\"query\": \"gitlab\"}").post(memories(s) + "/search").then().statusCode(200)
                .body("results[0].explain", nullValue());
    }

    @Test
    void aBankSetToTheSeedRankingIsSearchedSoUnlessTheSearchSaysOtherwise() {
        String s = Api.newStore();
        save(s, "strong", "gateway gateway gateway gateway gateway");
        save(s, "weak", "gateway " + "unrelated prose about dashboards and pipelines ".repeat(30));
        String bank = "/v1/stores/" + s + "/banks/user:alice/config";
        given().get(bank).then().statusCode(404);
        json().body("{\"mission\": \"m\", \"ranking\": \"seed\"}").put(bank).then().statusCode(200)
                .body("ranking", equalTo("seed"));
        given().get(bank).then().statusCode(200).body("ranking", equalTo("seed"));
        String one = "{\"query\": \"gateway\", \"banks\": [\"user:alice\"], \"explain\": true}";
        JsonPath seed = JsonPath.from(json().body(one).post(memories(s) + "/search").then().statusCode(200)
                .extract().asString());
        assertEquals(0.5 * 0.75, seed.getDouble("results[0].score"), 1e-3, "the seed's 1/(1+1) × boost × decay");
        org.junit.jupiter.api.Assertions.assertNull(seed.get("results[0].explain"), "seed explains nothing");
        assertEquals("strong", ids(s, "{\"query\": \"gateway\", \"banks\": [\"user:alice\"], \"ranking\": "
                + "\"lexical\"}").get(0));
        json().body("{\"mission\": \"m\", \"ranking\": \"bm25\"}").put(bank).then().statusCode(422)
                .body("field", equalTo("ranking")).body("detail", containsString("seed, hybrid, lexical, semantic"));
        given().get(bank).then().statusCode(200).body("ranking", equalTo("seed"));
    }

    @Test
    void aQueryOfAnyLengthUpToItsBoundIsAnsweredAndOneLongerIsRefused() {
        String s = Api.newStore();
        save(s, "a", "Melanie signed up for a pottery class to relax.");
        String words = "what did Melanie say about the pottery class she signed up for last week and how it "
                + "helps her relax after work";
        assertTrue(words.split(" ").length > 16);
        assertEquals(List.of("a"), ids(s, "{\"query\": \"" + words + "\"}"));
        json().body("{\"query\": \"" + words + "\", \"ranking\": \"seed\"}").post(memories(s) + "/search").then()
                .statusCode(422).body("rule", equalTo("query-words"));
        String long1000 = "pottery ".repeat(125);
        assertEquals(1000, long1000.length());
        assertEquals(List.of("a"), ids(s, "{\"query\": \"" + long1000 + "\"}"));
        json().body("{\"query\": \"" + long1000 + "x\"}").post(memories(s) + "/search").then().statusCode(422)
                .body("rule", equalTo("query-length")).body("detail", containsString("1001"))
                .body("detail", containsString("1000"));
        json().body("{\"query\": \"pottery\", \"ranking\": \"vector\"}").post(memories(s) + "/search").then()
                .statusCode(422).body("field", equalTo("ranking"));
        json().body("{\"query\": \"pottery\", \"explain\": \"yes\"}").post(memories(s) + "/search").then()
                .statusCode(422);
    }

    @Test
    void theRecallToolTakesALongQuestionAndRefusesOneOverTheBound() {
        String s = Api.newStore();
        save(s, "a", "Melanie signed up for a pottery class to relax.");
        String call = "{\"name\": \"memory_recall\", \"arguments\": {\"query\": \"%s\"}, \"bank\": \"user:alice\"}";
        String question = "what did Melanie say about the pottery class she signed up for last week and how it "
                + "helps her relax after work";
        json().body(String.format(call, question)).post("/v1/stores/" + s + "/tools/call").then().statusCode(200)
                .body("is_error", equalTo(false)).body("output", containsString("pottery class"));
        json().body(String.format(call, "x".repeat(1001))).post("/v1/stores/" + s + "/tools/call").then()
                .statusCode(200).body("is_error", equalTo(true)).body("output", containsString("1000"));
    }

    @Test
    void theRecallStatusCountsTheStoresMemories() {
        String s = Api.newStore();
        save(s, "a", "one");
        save(s, "b", "two");
        given().get("/v1/stores/" + s + "/recall").then().statusCode(200).body("store", equalTo(s))
                .body("memories", equalTo(2)).body("model", notNullValue());
    }
}
