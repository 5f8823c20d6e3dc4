package dev.engram.documents.stores.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;

import dev.engram.TestAuth;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

/**
 * The header rules of /v1/memory_stores over raw HTTP: a key as x-api-key or Bearer, two different ones refused,
 * exactly one of the API's betas, and every refusal in Anthropic's error envelope (x-should-retry: false when
 * retrying cannot help).
 */
@QuarkusTest
class MemoryStoresHeadersTest {

    static final String BETA = "agent-memory-2026-07-22";

    static RequestSpecification raw() {
        return given().filter(TestAuth.NO_TOKEN);
    }

    @Test
    void aKeyIsTakenAsXApiKeyOrAsBearer() {
        raw().header("x-api-key", TestAuth.OPERATOR_KEY).header("anthropic-beta", BETA).get("/v1/memory_stores")
                .then().statusCode(200).body("data", notNullValue()); // a page; how full depends on the suite's order
        given().header("Authorization", "Bearer " + TestAuth.OPERATOR_KEY).header("anthropic-beta", BETA)
                .get("/v1/memory_stores").then().statusCode(200);
        given().header("Authorization", "Bearer " + TestAuth.OPERATOR_KEY).header("x-api-key", TestAuth.OPERATOR_KEY)
                .header("anthropic-beta", BETA).get("/v1/memory_stores").then().statusCode(200);
    }

    @Test
    void twoDifferentKeysAreRefused() {
        given().header("Authorization", "Bearer " + TestAuth.OPERATOR_KEY).header("x-api-key", "eng_other")
                .header("anthropic-beta", BETA).get("/v1/memory_stores").then().statusCode(400)
                .header("x-should-retry", "false").body("type", equalTo("error"))
                .body("error.type", equalTo("invalid_request_error"))
                .body("error.message", containsString("x-api-key"));
    }

    @Test
    void noKeyIsAnAuthenticationError() {
        raw().header("anthropic-beta", BETA).get("/v1/memory_stores").then().statusCode(401)
                .header("WWW-Authenticate", startsWith("Bearer")).body("error.type", equalTo("authentication_error"))
                .body("request_id", startsWith("req_"));
    }

    @Test
    void exactlyOneBetaIsAsked() {
        raw().header("x-api-key", TestAuth.OPERATOR_KEY).get("/v1/memory_stores").then().statusCode(400)
                .body("error.type", equalTo("invalid_request_error"))
                .body("error.message", containsString(BETA)).body("error.message",
                        containsString("managed-agents-2026-04-01"));
        raw().header("x-api-key", TestAuth.OPERATOR_KEY).header("anthropic-beta", "files-api-2025-04-14, " + BETA)
                .get("/v1/memory_stores").then().statusCode(200);
        raw().header("x-api-key", TestAuth.OPERATOR_KEY).header("anthropic-beta", "managed-agents-2026-04-01")
                .get("/v1/memory_stores").then().statusCode(200);
        raw().header("x-api-key", TestAuth.OPERATOR_KEY).header("anthropic-beta", BETA + ",managed-agents-2026-04-01")
                .get("/v1/memory_stores").then().statusCode(400).body("error.message", containsString("both"));
    }

    @Test
    void anUnknownStoreIsANotFoundEnvelope() {
        raw().header("x-api-key", TestAuth.OPERATOR_KEY).header("anthropic-beta", BETA)
                .get("/v1/memory_stores/memstore_no-such-store-here").then().statusCode(404)
                .header("x-should-retry", "false").contentType("application/json")
                .body("error.type", equalTo("not_found_error"))
                .body("error.details.problem", equalTo("https://engram.dev/problems/not-found"));
        raw().header("x-api-key", TestAuth.OPERATOR_KEY).header("anthropic-beta", BETA)
                .get("/v1/memory_stores/not-an-id").then().statusCode(404).body("error.type",
                        equalTo("not_found_error"));
    }

    @Test
    void aConflictSaysNotToRetry() {
        String store = raw().header("x-api-key", TestAuth.OPERATOR_KEY).header("anthropic-beta", BETA)
                .contentType("application/json").body("{\"name\": \"headers\"}").post("/v1/memory_stores").then()
                .statusCode(200).extract().path("id");
        for (int i = 0; i < 2; i++) {
            var r = raw().header("x-api-key", TestAuth.OPERATOR_KEY).header("anthropic-beta", BETA)
                    .contentType("application/json").body("{\"path\": \"/a.md\", \"content\": \"x\"}")
                    .post("/v1/memory_stores/" + store + "/memories").then();
            if (i == 1) {
                r.statusCode(409).header("x-should-retry", "false")
                        .body("error.type", equalTo("memory_path_conflict_error"))
                        .body("error.conflicting_path", equalTo("/a.md"));
            }
        }
    }
}
