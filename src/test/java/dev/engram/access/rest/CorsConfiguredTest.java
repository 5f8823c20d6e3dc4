package dev.engram.access.rest;

import dev.engram.ConfigProfile;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import dev.engram.TestAuth;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With CORS configured for an origin, a browser's preflight (which carries no token) is answered by CORS, and the
 * request that follows still needs its token: the door does not turn a preflight into a 401, nor open anything else.
 */
@QuarkusTest
@TestProfile(CorsConfiguredTest.OneOrigin.class)
class CorsConfiguredTest {

    /** CORS on, for one origin. */
    public static class OneOrigin extends ConfigProfile {
        public OneOrigin() {
            super(Map.of("quarkus.http.cors.enabled", "true", "quarkus.http.cors.origins", "https://app.example"));
        }
    }

    static final String PATH = "/v1/stores/cors-demo/scopes/user/entries/style";

    @Test
    void aPreflightFromTheAllowedOriginIsAnsweredWithoutAToken() {
        given().filter(TestAuth.NO_TOKEN).header("Origin", "https://app.example")
                .header("Access-Control-Request-Method", "PUT")
                .header("Access-Control-Request-Headers", "authorization,content-type")
                .options(PATH).then().statusCode(200)
                .header("Access-Control-Allow-Origin", equalTo("https://app.example"));
    }

    @Test
    void theRequestAfterThePreflightStillNeedsItsToken() {
        given().filter(TestAuth.NO_TOKEN).header("Origin", "https://app.example").contentType("application/json")
                .body("{\"content\": \"x\"}").put(PATH).then().statusCode(401);
        given().filter(TestAuth.NO_TOKEN).header("Origin", "https://app.example").get(PATH).then().statusCode(401);
        given().filter(TestAuth.NO_TOKEN).options(PATH).then().statusCode(401);
    }
}
