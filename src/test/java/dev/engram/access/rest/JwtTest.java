package dev.engram.access.rest;

import dev.engram.ConfigProfile;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import dev.engram.TestAuth;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jose4j.jwt.JwtClaims;
import org.junit.jupiter.api.Test;

/**
 * Tokens from an identity provider (a JWK set in a file, a key pair the test generates): the grants claim is the
 * grant, and a token that is expired, from another issuer, signed by another key or without grants is refused.
 * The same profile opens the operator's endpoints, as {@code engram.auth.open-ops-endpoints} does.
 */
@QuarkusTest
@TestProfile(JwtTest.IdentityProvider.class)
class JwtTest {

    /** Engram configured with the test's identity provider, and /q open to everyone. */
    public static class IdentityProvider extends ConfigProfile {
        public IdentityProvider() {
            super(Map.of("engram.auth.jwt.issuer", TestIdp.ISSUER,
                    "engram.auth.jwt.public-key-location", TestIdp.jwksLocation(),
                    "engram.auth.open-ops-endpoints", "true"));
        }
    }

    static final Map<String, Object> WRITE_JWT_STORES = Map.of("engram_grants",
            List.of(Map.of("stores", "jwt-*", "role", "write", "scopes", List.of("user"))));

    String store = "jwt-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void theGrantsClaimIsTheGrant() {
        String token = TestIdp.token("agent-7", WRITE_JWT_STORES);
        given().header("Authorization", "Bearer " + token).contentType("application/json")
                .body("{\"content\": \"from a token\"}").put("/v1/stores/" + store + "/scopes/user/entries/a")
                .then().statusCode(201);
        given().header("Authorization", "Bearer " + token).get("/v1/stores/" + store + "/scopes/user/entries/a")
                .then().statusCode(200).body("content", equalTo("from a token"));
        given().header("Authorization", "Bearer " + token).contentType("application/json")
                .body("{\"content\": \"x\"}").put("/v1/stores/" + store + "/scopes/project/entries/a")
                .then().statusCode(403).body("needs", equalTo("write on scope project"));
        given().header("Authorization", "Bearer " + token).get("/v1/stores/elsewhere/scopes/user/entries")
                .then().statusCode(404);
        given().header("Authorization", "Bearer " + token).get("/v1/keys").then().statusCode(403);
    }

    @Test
    void adminOnEveryStoreInTheClaimIsTheOperator() {
        String token = TestIdp.token("ops", Map.of("engram_grants", List.of(Map.of("stores", "*", "role", "admin"))));
        given().header("Authorization", "Bearer " + token).get("/v1/keys").then().statusCode(200);
    }

    @Test
    void badTokensAreRefused() {
        JwtClaims expired = claims("late");
        expired.setExpirationTimeMinutesInTheFuture(-10);
        JwtClaims otherIssuer = claims("elsewhere");
        otherIssuer.setIssuer("https://another.example.test");
        JwtClaims noSubject = claims("x");
        noSubject.unsetClaim("sub");
        JwtClaims noGrants = claims("bare");
        noGrants.unsetClaim("engram_grants");
        JwtClaims badGrant = claims("odd");
        badGrant.setClaim("engram_grants", List.of(Map.of("stores", "jwt-*", "role", "owner")));
        JwtClaims unknownMember = claims("odd");
        unknownMember.setClaim("engram_grants", List.of(Map.of("stores", "jwt-*", "role", "read", "extra", 1)));
        for (String token : List.of(sign(expired), sign(otherIssuer), sign(noSubject), sign(noGrants),
                sign(badGrant), sign(unknownMember),
                TestIdp.sign(claims("forged"), TestIdp.generate().getPrivate(), TestIdp.KID),
                TestIdp.token("agent-7", WRITE_JWT_STORES) + "x")) {
            given().header("Authorization", "Bearer " + token).get("/v1/stores/" + store + "/scopes/user/entries")
                    .then().statusCode(401).header("WWW-Authenticate", "Bearer error=\"invalid_token\"");
        }
    }

    /**
     * A JWT signs in to the console as it authenticates on the API: its grants are the session's, the journal names
     * its subject as the writer, and the session ends when the token expires; a bad token opens none.
     */
    @Test
    void aTokenSignsInToTheConsoleUntilItExpires() throws Exception {
        String token = TestIdp.token("agent-7", WRITE_JWT_STORES);
        given().header("Authorization", "Bearer " + token).contentType("application/json")
                .body("{\"content\": \"from a token\"}").put("/v1/stores/" + store + "/scopes/user/entries/a")
                .then().statusCode(201);
        dev.engram.console.ConsoleClient console = dev.engram.console.ConsoleClient.signIn(token);
        String page = "/console/stores/" + store + "/scopes/user";
        console.get(page).then().statusCode(200).body(org.hamcrest.Matchers.containsString("from a token"));
        console.get("/console/stores/" + store + "/scopes/project").then().statusCode(403);
        console.get("/console/keys").then().statusCode(403);
        org.junit.jupiter.api.Assertions.assertEquals(303, console.post(page + "/entries", "name", "b", "content",
                "from the console").statusCode());
        given().get("/v1/stores/" + store + "/journal").then().statusCode(200)
                .body("records.by", org.hamcrest.Matchers.contains("jwt:agent-7", "jwt:agent-7"));

        JwtClaims brief = claims("brief");
        brief.setClaim("engram_grants", WRITE_JWT_STORES.get("engram_grants"));
        brief.setExpirationTimeMinutesInTheFuture(0.05f);
        dev.engram.console.ConsoleClient shortLived = dev.engram.console.ConsoleClient.signIn(sign(brief));
        shortLived.get(page).then().statusCode(200);
        Thread.sleep(4_000);
        shortLived.get(page).then().statusCode(303);

        JwtClaims expired = claims("late");
        expired.setExpirationTimeMinutesInTheFuture(-10);
        org.junit.jupiter.api.Assertions.assertNotEquals(303,
                dev.engram.console.ConsoleClient.trySignIn(sign(expired)).statusCode(), "an expired token opens none");
    }

    @Test
    void apiKeysStillWorkBesideTokens() {
        given().header("Authorization", "Bearer " + TestAuth.OPERATOR_KEY).get("/v1/keys").then().statusCode(200);
    }

    @Test
    void theOperatorsEndpointsCanBeOpened() {
        given().filter(TestAuth.NO_TOKEN).get("/q/metrics").then().statusCode(200);
        given().filter(TestAuth.NO_TOKEN).get("/q/openapi").then().statusCode(200);
        given().filter(TestAuth.NO_TOKEN).get("/v1/keys").then().statusCode(401);
    }

    private static JwtClaims claims(String subject) {
        JwtClaims c = new JwtClaims();
        c.setIssuer(TestIdp.ISSUER);
        c.setSubject(subject);
        c.setIssuedAtToNow();
        c.setExpirationTimeMinutesInTheFuture(5);
        c.setClaim("engram_grants", List.of(Map.of("stores", "jwt-*", "role", "read")));
        return c;
    }

    private static String sign(JwtClaims claims) {
        return TestIdp.sign(claims, TestIdp.privateKey(), TestIdp.KID);
    }
}
