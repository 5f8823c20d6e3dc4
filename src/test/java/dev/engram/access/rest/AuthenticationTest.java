package dev.engram.access.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.TestAuth;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The door: what a missing, malformed or revoked token gets, and that a revocation reaches every request. */
@QuarkusTest
class AuthenticationTest {

    static final HttpClient HTTP = HttpClient.newHttpClient();

    @Inject
    AgroalDataSource db;

    @TestHTTPResource("/")
    URI base;

    @Test
    void noTokenIsA401ProblemThatAsksForABearerToken() {
        given().filter(TestAuth.NO_TOKEN).get("/v1/stores/any").then().statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", "Bearer")
                .body("type", equalTo("https://engram.dev/problems/unauthorized"))
                .body("status", equalTo(401))
                .body("instance", equalTo("/v1/stores/any"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Basic dXNlcjpwYXNz", "Bearer", "Bearer    ", "Token abc"})
    void anotherSchemeOrAnEmptyTokenIsNoToken(String header) {
        given().header("Authorization", header).get("/v1/stores/any").then().statusCode(401)
                .header("WWW-Authenticate", "Bearer");
    }

    @ParameterizedTest
    @ValueSource(strings = {"hello", "eng_short", "eng_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "a.b.c", "test-operator-key-0123456789abcdef-not-secreT"})
    void aBadTokenIsA401WithInvalidToken(String token) {
        given().header("Authorization", "Bearer " + token).get("/v1/stores/any").then().statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", "Bearer error=\"invalid_token\"")
                .body("type", equalTo("https://engram.dev/problems/unauthorized"));
    }

    @Test
    void theSchemeIsCaseInsensitive() {
        given().header("Authorization", "bearer " + TestAuth.OPERATOR_KEY).get("/v1/keys").then().statusCode(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/q/health/../../v1/keys", "/q/health/%2e%2e/%2e%2e/v1/keys", "//v1/keys",
            "/v1/stores/../keys"})
    void dotSegmentsDoNotLeadPastTheDoor(String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + base.getPort()
                + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(r.statusCode() == 401 || r.statusCode() == 400, path + " answered " + r.statusCode());
    }

    @Test
    void aKeyRevokedOnAnotherReplicaIsRefusedWithinASecond() throws Exception {
        var issued = Keyring.issued("elsewhere", "[{\"stores\": \"*\", \"role\": \"read\"}]");
        String key = issued.path("key");
        given().header("Authorization", "Bearer " + key).get("/v1/stores/nowhere").then().statusCode(404);
        try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement(
                "update api_key set revoked_at = clock_timestamp() where id = ?")) {
            s.setString(1, issued.path("id"));
            assertEquals(1, s.executeUpdate());
        }
        // What another replica's DELETE does: the row only. This replica trusts what it looked up for at most
        // engram.auth.cache-ttl (500 ms here, never over a second), so past a second the key is refused.
        Thread.sleep(1100);
        given().header("Authorization", "Bearer " + key).get("/v1/stores/nowhere").then().statusCode(401)
                .header("WWW-Authenticate", "Bearer error=\"invalid_token\"");
    }

    @Test
    void aJournalFollowerIsCutOffWhenItsKeyIsRevoked() throws Exception {
        String store = "follow-" + UUID.randomUUID().toString().substring(0, 8);
        put(store, "one");
        var issued = Keyring.issued("follower", "[{\"stores\": \"" + store + "\", \"role\": \"read\"}]");
        HttpResponse<java.io.InputStream> r = HTTP.send(HttpRequest.newBuilder(base.resolve("/v1/stores/" + store
                + "/journal")).header("Accept", "text/event-stream").header("Authorization", "Bearer "
                + issued.path("key")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null && !line.startsWith("data:")) {
                // up to the first record
            }
            assertTrue(line != null && line.contains("one"), "the follower saw the first record: " + line);
            given().delete("/v1/keys/" + issued.path("id")).then().statusCode(204);
            put(store, "two");
            String after = null;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("data:")) {
                    after = line;
                }
            }
            assertNull(after, "no record reached the follower after its key was revoked");
        }
    }

    private static void put(String store, String content) {
        given().contentType("application/json").body("{\"content\": \"" + content + "\"}")
                .put("/v1/stores/" + store + "/scopes/user/entries/n").then().statusCode(org.hamcrest.Matchers
                        .oneOf(200, 201));
    }
}
