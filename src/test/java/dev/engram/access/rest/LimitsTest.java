package dev.engram.access.rest;

import dev.engram.ConfigProfile;
import dev.engram.rest.Sql;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.TestAuth;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Each limit of a key, reached: the request over it is refused with its problem (429, the limit's name and value,
 * Retry-After for the rate), it writes nothing, and the operator key is not limited.
 */
@QuarkusTest
@TestProfile(LimitsTest.Small.class)
class LimitsTest {

    /** Small limits, so that a test reaches each. */
    public static class Small extends ConfigProfile {
        public Small() {
            super(Map.of("engram.limits.requests-per-second", "2", "engram.limits.burst", "20",
                    "engram.limits.stores-per-key", "2", "engram.limits.entries-per-store", "3", "engram.limits.memories-per-store", "3",
                    "engram.limits.mcp-sessions-per-key", "2", "engram.limits.followers-per-key", "1"));
        }
    }

    static final String JSON = "application/json";

    @Inject
    AgroalDataSource db;

    @TestHTTPResource("/")
    URI base;

    final String prefix = "lim" + UUID.randomUUID().toString().substring(0, 6);

    private String key(String role) {
        return Keyring.issue(prefix + "-" + role, "[{\"stores\": \"" + prefix + "-*\", \"role\": \"" + role + "\"}]");
    }

    private static Response put(String key, String store, String name) {
        return given().header("Authorization", "Bearer " + key).contentType(JSON).body("{\"content\": \"x\"}")
                .put("/v1/stores/" + store + "/scopes/user/entries/" + name);
    }

    @Test
    void aKeyOverItsRateIsToldWhenToRetryAndItsRefusedWriteWritesNothing() throws Exception {
        String key = key("write");
        String store = prefix + "-rate";
        put(key, store, "first").then().statusCode(201);
        List<Integer> statuses = new ArrayList<>();
        Response refused = null;
        for (int i = 0; i < 40 && refused == null; i++) {
            Response r = put(key, store, "first");
            statuses.add(r.statusCode());
            if (r.statusCode() == 429) {
                refused = r;
            }
        }
        assertTrue(refused != null, "40 requests at once over a burst of 20 meet the limit: " + statuses);
        assertTrue(statuses.indexOf(429) >= 18, "the burst passes first: " + statuses);
        refused.then().contentType("application/problem+json")
                .body("type", equalTo("https://engram.dev/problems/rate-limited"))
                .body("limit", equalTo("requests-per-second")).body("max", equalTo(2));
        assertTrue(Integer.parseInt(refused.header("Retry-After")) >= 1, refused.header("Retry-After"));
        assertEquals(statuses.size(), count("select count(*) from journal where store_id = ?", store),
                "the first write and each one that passed, and not the refused one");
        for (int i = 0; i < 30; i++) {
            given().get("/v1/stores/" + store).then().statusCode(200);
        }
    }

    @Test
    void aStoreHoldsItsMostEntriesAndUpdatesStillLand() throws Exception {
        String store = prefix + "-full";
        String op = TestAuth.OPERATOR_KEY;
        for (String name : List.of("a", "b", "c")) {
            put(op, store, name).then().statusCode(201);
        }
        long journal = count("select count(*) from journal where store_id = ?", store);
        put(op, store, "d").then().statusCode(429).contentType("application/problem+json")
                .body("type", equalTo("https://engram.dev/problems/quota"))
                .body("limit", equalTo("entries-per-store")).body("max", equalTo(3));
        assertEquals(journal, count("select count(*) from journal where store_id = ?", store));
        assertEquals(3, count("select count(*) from entry where store_id = ?", store));
        given().contentType(JSON).body("{\"name\":\"memory_save\",\"scopes\":[\"user\"],\"arguments\":"
                + "{\"name\":\"e\",\"content\":\"y\"}}").post("/v1/stores/" + store + "/tools/call").then()
                .statusCode(200).body("is_error", equalTo(true)).body("output", containsString("3 entries"));
        given().contentType(JSON).body("{\"content\": \"changed\"}").put("/v1/stores/" + store
                + "/scopes/user/entries/a").then().statusCode(200);
        given().delete("/v1/stores/" + store + "/scopes/user/entries/b").then().statusCode(200);
        assertEquals(2, count("select entries from store where id = ?", store), "the store's count follows");
        put(op, store, "d").then().statusCode(201);
        assertEquals(3, count("select entries from store where id = ?", store));
    }

    @Test
    void aStoreHoldsItsMostMemoriesAndSavesOverThemStillLand() throws Exception {
        String store = prefix + "-memories";
        String memories = "/v1/stores/" + store + "/memories";
        for (String id : List.of("a", "b", "c")) {
            given().contentType(JSON).body("{\"id\": \"" + id + "\", \"content\": \"fact " + id + "\", "
                    + "\"tags\": [\"t\"]}").post(memories).then().statusCode(201);
        }
        long journal = count("select count(*) from journal where store_id = ?", store);
        given().contentType(JSON).body("{\"content\": \"one too many\"}").post(memories).then().statusCode(429)
                .contentType("application/problem+json").body("type", equalTo("https://engram.dev/problems/quota"))
                .body("limit", equalTo("memories-per-store")).body("max", equalTo(3));
        given().contentType(JSON).body("{\"name\": \"memory_remember\", \"bank\": \"global\", \"arguments\": "
                + "{\"content\": \"y\"}}").post("/v1/stores/" + store + "/tools/call").then().statusCode(200)
                .body("is_error", equalTo(true)).body("output", containsString("3 memories"));
        given().contentType(JSON).body("{\"reflector\": \"deterministic\"}").post("/v1/stores/" + store
                + "/banks/global/reflect").then().statusCode(429).body("limit", equalTo("memories-per-store"));
        given().contentType(JSON).body("{\"memories\": [{\"id\": \"a\", \"content\": \"fact a, in a batch\"}, "
                + "{\"content\": \"one too many, in a batch\"}]}").post(memories + "/batch").then().statusCode(429)
                .body("limit", equalTo("memories-per-store")).body("max", equalTo(3));
        given().get(memories + "/a").then().statusCode(200).body("content", equalTo("fact a"));
        assertEquals(journal, count("select count(*) from journal where store_id = ?", store));
        assertEquals(3, count("select count(*) from memory where store_id = ?", store));
        given().contentType(JSON).body("{\"content\": \"fact a, changed\"}").put(memories + "/a").then()
                .statusCode(200);
        given().delete(memories + "/b").then().statusCode(204);
        given().contentType(JSON).body("{\"content\": \"room again\"}").post(memories).then().statusCode(201);
        given().delete(memories).then().statusCode(200);
        assertEquals(0, count("select memories from store where id = ?", store));
        given().contentType(JSON).body("{\"content\": \"after a clear\"}").post(memories).then().statusCode(201);
    }

    @Test
    void aKeyCreatesItsMostStoresAndStillWritesToThem() throws Exception {
        String key = key("write");
        put(key, prefix + "-one", "a").then().statusCode(201);
        put(key, prefix + "-two", "a").then().statusCode(201);
        put(key, prefix + "-three", "a").then().statusCode(429).body("limit", equalTo("stores-per-key"))
                .body("max", equalTo(2));
        assertEquals(0, count("select count(*) from store where id = ?", prefix + "-three"));
        given().get("/v1/stores/" + prefix + "-three").then().statusCode(404);
        put(key, prefix + "-one", "b").then().statusCode(201);
        String admin = key("admin");
        given().header("Authorization", "Bearer " + admin).contentType(JSON).body("{}")
                .put("/v1/stores/" + prefix + "-four").then().statusCode(201);
        put(TestAuth.OPERATOR_KEY, prefix + "-five", "a").then().statusCode(201);
    }

    @Test
    void aKeyFollowsItsMostJournalsAtOnce() throws Exception {
        String key = key("read");
        String store = prefix + "-follow";
        put(TestAuth.OPERATOR_KEY, store, "a").then().statusCode(201);
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        URI journal = base.resolve("/v1/stores/" + store + "/journal");
        HttpResponse<InputStream> first = follow(client, journal, key);
        try {
            assertEquals(200, first.statusCode());
            HttpResponse<InputStream> second = follow(client, journal, key);
            String body = new String(second.body().readAllBytes());
            assertEquals(429, second.statusCode(), body);
            assertTrue(body.contains("journal-followers-per-key"), body);
            HttpResponse<InputStream> operator = follow(client, journal, TestAuth.OPERATOR_KEY);
            assertEquals(200, operator.statusCode());
            operator.body().close();
        } finally {
            first.body().close();
        }
    }

    @Test
    void aKeyHoldsItsMostMcpSessionsAndEndingOneFreesItsPlace() {
        String key = key("write");
        String url = "/mcp?store=" + prefix + "-mcp&scope=user";
        String one = initialize(url, key).header("Mcp-Session-Id");
        initialize(url, key).then().statusCode(200);
        Response third = initialize(url, key);
        third.then().statusCode(429).contentType("application/problem+json")
                .body("limit", equalTo("mcp-sessions-per-key")).body("max", equalTo(2));
        given().header("Authorization", "Bearer " + key).header("Mcp-Session-Id", one).delete("/mcp").then()
                .statusCode(200);
        initialize(url, key).then().statusCode(200);
        initialize(url, TestAuth.OPERATOR_KEY).then().statusCode(200);
    }

    private static Response initialize(String url, String key) {
        return McpAccessTest.post(url, key, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\","
                + "\"version\":\"1\"}}}");
    }

    private static HttpResponse<InputStream> follow(HttpClient client, URI uri, String key) throws Exception {
        return client.send(HttpRequest.newBuilder(uri).header("Accept", "text/event-stream")
                .header("Authorization", "Bearer " + key).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
    }

    private long count(String sql, String... args) throws Exception {
        return Sql.count(db, sql, (Object[]) args);
    }
}
