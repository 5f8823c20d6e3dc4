package dev.engram.ops;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.TestAuth;
import io.quarkus.test.junit.QuarkusTest;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Health, metrics and the API description, as an operator reaches them. */
@QuarkusTest
class OpsTest {

    @Test
    void liveAndReadyAreUpWhenTheDatabaseAnswers() {
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"))
                .body("checks.name", hasItem(containsString("Database")));
    }

    @Test
    void metricsCountWritesByOutcomeAndTimeRequests() {
        String s = "ops-" + UUID.randomUUID().toString().substring(0, 8);
        double created = writes("created");
        double conflict = writes("conflict");
        double tooLarge = writes("too_large");
        double invalid = writes("invalid");
        double forgotten = writes("forgotten");
        double replaced = writes("replaced");
        String path = "/v1/stores/" + s + "/scopes/user/entries/a";
        given().contentType("application/json").body("{\"content\":\"one\"}").put(path).then().statusCode(201);
        given().contentType("application/json").body("{\"content\":\"two\"}").put(path).then().statusCode(200);
        given().contentType("application/json").header("If-None-Match", "*").body("{\"content\":\"x\"}").put(path)
                .then().statusCode(412);
        given().contentType("application/json").body("{\"content\":\"" + "x".repeat(5000) + "\"}").put(path)
                .then().statusCode(413);
        given().contentType("application/json").body("{\"content\":\"\"}").put(path).then().statusCode(422);
        given().delete(path).then().statusCode(200);
        assertTrue(writes("created") >= created + 1);
        assertTrue(writes("replaced") >= replaced + 1);
        assertTrue(writes("conflict") >= conflict + 1);
        assertTrue(writes("too_large") >= tooLarge + 1);
        assertTrue(writes("invalid") >= invalid + 1);
        assertTrue(writes("forgotten") >= forgotten + 1);
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("http_server_requests_seconds_count{"))
                .body(containsString("uri=\"/v1/stores/{store}/scopes/{scope}/entries/{name}\""));
    }

    @Test
    void aRefusalBeforeAnyResourceIsCountedUnderOneUriNotItsPath() throws InterruptedException {
        String s = "ops-" + UUID.randomUUID().toString().substring(0, 8);
        given().filter(TestAuth.NO_TOKEN).get("/v1/stores/" + s + "/scopes/user/entries/a").then().statusCode(401);
        given().header("Authorization", "Bearer eng_" + "x".repeat(43)).get("/v1/stores/" + s + "/journal").then()
                .statusCode(401);
        // refused by pre-matching filters, through the exception mappers (the ';' sent as it is, not encoded)
        given().urlEncodingEnabled(false).get("/v1/stores/" + s + "/scopes/user/entries?scope=a;b").then()
                .statusCode(422);
        given().urlEncodingEnabled(false).get("/v1/stores/" + s + "/scopes/user/entries/a;v=2").then()
                .statusCode(422);
        Pattern unmatched = Pattern.compile("http_server_requests_seconds_count\\{[^}]*status=\"401\"[^}]*"
                + "uri=\"/?UNMATCHED\"[^}]*} ([0-9.E]+)");
        String metrics = "";
        for (int i = 0; i < 50 && !unmatched.matcher(metrics).find(); i++) {
            Thread.sleep(i == 0 ? 0 : 100); // a request is counted as its response ends
            metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        }
        assertTrue(unmatched.matcher(metrics).find(), "the refusals are counted under uri=\"UNMATCHED\": "
                + metrics.lines().filter(l -> l.startsWith("http_server_requests_seconds_count")).toList());
        assertFalse(metrics.contains(s), "no series is named after a refused request's path");
    }

    private static double writes(String outcome) {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("engram_writes_total\\{[^}]*outcome=\"" + outcome + "\"[^}]*} ([0-9.E]+)")
                .matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    @Test
    void openApiDescribesTheRoutesAndSwaggerUiIsServed() {
        given().get("/q/openapi?format=json").then().statusCode(200)
                .body(containsString("/v1/stores/{store}/scopes/{scope}/entries/{name}"))
                .body(containsString("/v1/stores/{store}/journal"));
        given().get("/q/swagger-ui/").then().statusCode(200);
    }
}
