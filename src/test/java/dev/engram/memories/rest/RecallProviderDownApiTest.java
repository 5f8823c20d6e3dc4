package dev.engram.memories.rest;

import dev.engram.ConfigProfile;
import dev.engram.rest.Api;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An embedding provider that cannot be reached fails neither a save nor a search: the search ranks lexically. */
@QuarkusTest
@TestProfile(RecallProviderDownApiTest.Unreachable.class)
class RecallProviderDownApiTest {

    /** An OpenAI-compatible provider on a port nothing listens on. */
    public static class Unreachable extends ConfigProfile {
        public Unreachable() {
            super(Map.of("engram.embedding.provider", "openai", "engram.embedding.model", "text-embedding-3-small",
                    "engram.embedding.base-url", "http://127.0.0.1:9/v1", "engram.embedding.dimensions", "8",
                    "engram.embedding.timeout", "1s"));
        }
    }

    @Test
    void savesAndSearchesGoOnAndTheSearchSaysItRankedLexically() {
        String s = Api.newStore();
        json().body("{\"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"content\": \"The lighthouse keeper paints "
                + "boats.\"}").post("/v1/stores/" + s + "/memories").then().statusCode(201);
        json().body("{\"query\": \"lighthouse\", \"explain\": true}").post("/v1/stores/" + s + "/memories/search")
                .then().statusCode(200).body("results[0].memory.content", containsString("lighthouse"))
                .body("results[0].explain.semantic", nullValue())
                .body("results[0].explain.note", containsString("could not be embedded"));
        json().body("{\"query\": \"lighthouse\", \"ranking\": \"semantic\", \"explain\": true}")
                .post("/v1/stores/" + s + "/memories/search").then().statusCode(200)
                .body("results[0].explain.ranking", equalTo("lexical"));
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("engram_recall_lexical_fallbacks_total"));
        given().get("/v1/stores/" + s + "/recall").then().statusCode(200).body("memories", equalTo(1))
                .body("embedded", equalTo(0)).body("pending", equalTo(1));
    }
}
