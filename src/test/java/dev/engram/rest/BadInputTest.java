package dev.engram.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.emptyOrNullString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.agroal.api.AgroalDataSource;
import io.restassured.RestAssured;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input gets a clear problem and writes nothing: after each request of the table, the store's row, its
 * entries and its journal are exactly what they were, read straight from PostgreSQL.
 */
@QuarkusTest
class BadInputTest {

    private static final String STYLE = "Short answers. Short answers.";
    private static final String STYLE_HASH = dev.engram.entries.Hash.of(STYLE);
    /** An ETag of a state the entry is not in. */
    private static final String STALE = "\"" + dev.engram.entries.Hash.version(dev.engram.entries.Hash.of("old"),
            Map.of()) + "\"";

    @Inject
    AgroalDataSource db;

    String store;

    /** One bad request: {@code {s}} in the path is the seeded store. */
    record Bad(String label, String method, String path, Map<String, String> headers, byte[] body, int status,
            String slug, String rule) {

        @Override
        public String toString() {
            return label;
        }
    }

    static Bad bad(String label, String method, String path, String body, int status, String slug, String rule) {
        return new Bad(label, method, path, Map.of("Content-Type", "application/json"),
                body == null ? null : body.getBytes(StandardCharsets.UTF_8), status, slug, rule);
    }

    static Bad bad(String label, String method, String path, Map<String, String> headers, String body, int status,
            String slug, String rule) {
        Map<String, String> all = new java.util.HashMap<>(headers);
        all.putIfAbsent("Content-Type", "application/json");
        return new Bad(label, method, path, all, body == null ? null : body.getBytes(StandardCharsets.UTF_8),
                status, slug, rule);
    }

    static final String KEY = "Idempotency-Key";
    /** The key the seeded entry was written under, and the body it was written with. */
    static final String SEED_KEY = "seed-key";
    static final String SEED_BODY = "{\"content\":\"" + STYLE + "\",\"meta\":{\"description\":\"How\"}}";
    static final String STYLE_PATH = "/v1/stores/{s}/scopes/user/entries/style";
    static final String NEW_PATH = "/v1/stores/{s}/scopes/user/entries/fresh";

    static Stream<Bad> table() {
        byte[] notUtf8 = {'{', '"', 'c', 'o', 'n', 't', 'e', 'n', 't', '"', ':', '"', (byte) 0xff, (byte) 0xfe, '"', '}'};
        byte[] overlong = {'{', '"', 'c', 'o', 'n', 't', 'e', 'n', 't', '"', ':', '"', 'a', (byte) 0xc0, (byte) 0xaf,
            'b', '"', '}'};
        byte[] surrogate = {'{', '"', 'c', 'o', 'n', 't', 'e', 'n', 't', '"', ':', '"', (byte) 0xed, (byte) 0xa0,
            (byte) 0x80, '"', '}'};
        List<Bad> rows = new ArrayList<>(List.of(
                bad("malformed JSON", "PUT", NEW_PATH, "{\"content\":", 400, "malformed", "body-syntax"),
                new Bad("body not UTF-8", "PUT", NEW_PATH, Map.of("Content-Type", "application/json"), notUtf8, 400,
                        "malformed", "body-encoding"),
                bad("empty body", "PUT", NEW_PATH, "", 422, "invalid", "content-missing"),
                bad("array body", "PUT", NEW_PATH, "[]", 422, "invalid", "member-type"),
                bad("string body", "PUT", NEW_PATH, "\"hello\"", 422, "invalid", "member-type"),
                bad("content a number", "PUT", NEW_PATH, "{\"content\":5}", 422, "invalid", "member-type"),
                bad("content a boolean", "PUT", STYLE_PATH, "{\"content\":true}", 422, "invalid", "member-type"),
                bad("content an object", "PUT", STYLE_PATH, "{\"content\":{}}", 422, "invalid", "member-type"),
                bad("content null", "PUT", NEW_PATH, "{\"content\":null}", 422, "invalid", "content-missing"),
                bad("content missing", "PUT", NEW_PATH, "{\"meta\":{}}", 422, "invalid", "content-missing"),
                bad("meta a string", "PUT", NEW_PATH, "{\"content\":\"x\",\"meta\":\"d\"}", 422, "invalid",
                        "member-type"),
                bad("meta value a number", "PUT", NEW_PATH, "{\"content\":\"x\",\"meta\":{\"n\":1}}", 422,
                        "invalid", "member-type"),
                bad("unknown member", "PUT", STYLE_PATH, "{\"content\":\"x\",\"if_match\":\"h\"}", 422, "invalid",
                        "unknown-member"),
                bad("duplicate member", "PUT", STYLE_PATH, "{\"content\":\"x\",\"content\":\"y\"}", 422, "invalid",
                        "duplicate-member"),
                bad("trailing garbage", "PUT", STYLE_PATH, "{\"content\":\"x\"} extra", 400, "malformed",
                        "body-syntax"),
                bad("empty content", "PUT", STYLE_PATH, "{\"content\":\"\"}", 422, "invalid", "content-empty"),
                bad("unpaired surrogate", "PUT", NEW_PATH, "{\"content\":\"\\ud800\"}", 422, "invalid",
                        "content-encoding"),
                bad("NUL in content", "PUT", NEW_PATH, "{\"content\":\"a\\u0000b\"}", 422, "invalid", "content-nul"),
                bad("reserved meta key", "PUT", STYLE_PATH, "{\"content\":\"x\",\"meta\":{\"updated\":\"now\"}}",
                        422, "invalid", "meta-key-reserved"),
                bad("meta key not kebab-case", "PUT", NEW_PATH, "{\"content\":\"x\",\"meta\":{\"Type\":\"a\"}}",
                        422, "invalid", "meta-key-format"),
                bad("meta value with a line break", "PUT", NEW_PATH,
                        "{\"content\":\"x\",\"meta\":{\"description\":\"a\\nb\"}}", 422, "invalid", "meta-value-line"),
                bad("meta over 1 KiB", "PUT", NEW_PATH, "{\"content\":\"x\",\"meta\":{\"description\":\""
                        + "d".repeat(1100) + "\"}}", 422, "invalid", "meta-size"),
                bad("content over the store's bound", "PUT", STYLE_PATH, "{\"content\":\"" + "x".repeat(65) + "\"}",
                        413, "too-large", null),
                bad("store not kebab-case", "PUT", "/v1/stores/Bad_Store/scopes/user/entries/a",
                        "{\"content\":\"x\"}", 422, "invalid", "store-format"),
                bad("scope not kebab-case", "PUT", "/v1/stores/{s}/scopes/User/entries/a", "{\"content\":\"x\"}",
                        422, "invalid", "scope-format"),
                bad("name of 65 bytes", "PUT", "/v1/stores/{s}/scopes/user/entries/" + "n".repeat(65),
                        "{\"content\":\"x\"}", 422, "invalid", "name-format"),
                bad("body over the HTTP limit", "PUT", NEW_PATH, "{\"content\":\"" + "x".repeat(1_100_000) + "\"}",
                        413, "body-too-large", null),
                bad("text/plain body", "PUT", NEW_PATH, Map.of("Content-Type", "text/plain"), "content", 415,
                        "unsupported-media-type", null),
                bad("If-Match not a hash", "PUT", STYLE_PATH, Map.of("If-Match", "\"v1\""), "{\"content\":\"x\"}",
                        422, "invalid", "if-match-form"),
                bad("If-Match stale", "PUT", STYLE_PATH, Map.of("If-Match", STALE), "{\"content\":\"x\"}", 412,
                        "precondition-failed", null),
                bad("If-Match a content hash", "PUT", STYLE_PATH, Map.of("If-Match", "\"" + STYLE_HASH + "\""),
                        "{\"content\":\"x\"}", 422, "invalid", "if-match-form"),
                bad("If-None-Match * on an existing entry", "PUT", STYLE_PATH, Map.of("If-None-Match", "*"),
                        "{\"content\":\"x\"}", 412, "precondition-failed", null),
                bad("If-None-Match not *", "PUT", NEW_PATH, Map.of("If-None-Match", "\"abc\""),
                        "{\"content\":\"x\"}", 422, "invalid", "if-none-match-form"),
                bad("If-Match and If-None-Match", "PUT", STYLE_PATH, Map.of("If-Match", "\"" + STYLE_HASH + "\"",
                        "If-None-Match", "*"), "{\"content\":\"x\"}", 422, "invalid", "precondition-headers"),
                bad("session with a space", "PUT", STYLE_PATH, Map.of("Engram-Session", "my session"),
                        "{\"content\":\"x\"}", 422, "invalid", "session-format"),
                bad("Based-On not a hash", "PUT", STYLE_PATH, Map.of("Engram-Based-On", "yesterday"),
                        "{\"content\":\"x\"}", 422, "invalid", "engram-based-on-form"),
                bad("patch anchor missing", "PATCH", STYLE_PATH, "{\"old_text\":\"long\",\"new_text\":\"x\"}", 422,
                        "invalid", "patch-anchor-missing"),
                bad("patch anchor twice", "PATCH", STYLE_PATH, "{\"old_text\":\"Short\",\"new_text\":\"x\"}", 422,
                        "invalid", "patch-anchor-ambiguous"),
                bad("patch old_text empty", "PATCH", STYLE_PATH, "{\"old_text\":\"\",\"new_text\":\"x\"}", 422,
                        "invalid", "patch-old-text"),
                bad("patch over the bound", "PATCH", STYLE_PATH, "{\"old_text\":\"Short answers. S\",\"new_text\":\""
                        + "y".repeat(60) + "\"}", 413, "too-large", null),
                bad("patch of a missing entry", "PATCH", NEW_PATH, "{\"old_text\":\"a\",\"new_text\":\"b\"}", 404,
                        "not-found", null),
                bad("forget of a missing entry", "DELETE", NEW_PATH, null, 404, "not-found", null),
                bad("forget with a stale If-Match", "DELETE", STYLE_PATH, Map.of("If-Match", STALE), null, 412,
                        "precondition-failed", null),
                bad("Idempotency-Key with a space", "PUT", NEW_PATH, Map.of(KEY, "two words"),
                        "{\"content\":\"x\"}", 422, "invalid", "idempotency-key-format"),
                bad("Idempotency-Key of 256 characters", "PUT", NEW_PATH, Map.of(KEY, "k".repeat(256)),
                        "{\"content\":\"x\"}", 422, "invalid", "idempotency-key-format"),
                bad("Idempotency-Key reused with another body", "PUT", STYLE_PATH, Map.of(KEY, SEED_KEY),
                        "{\"content\":\"x\"}", 422, "idempotency-key-reused", null),
                bad("Idempotency-Key reused on another path", "PUT", NEW_PATH, Map.of(KEY, SEED_KEY), SEED_BODY,
                        422, "idempotency-key-reused", null),
                bad("Idempotency-Key reused to forget", "DELETE", STYLE_PATH, Map.of(KEY, SEED_KEY), null, 422,
                        "idempotency-key-reused", null),
                bad("Idempotency-Key reused by a tool call", "POST", "/v1/stores/{s}/tools/call", Map.of(KEY, SEED_KEY),
                        "{\"name\":\"memory_forget\",\"scopes\":[\"user\"],\"arguments\":{\"name\":\"style\"}}", 422,
                        "idempotency-key-reused", null),
                bad("stale If-Match under a new key", "PUT", STYLE_PATH, Map.of(KEY, "k-412", "If-Match", STALE),
                        "{\"content\":\"x\"}", 412, "precondition-failed",
                        null),
                bad("content over the bound under a new key", "PUT", STYLE_PATH, Map.of(KEY, "k-413"),
                        "{\"content\":\"" + "x".repeat(65) + "\"}", 413, "too-large", null),
                bad("forget of a missing entry under a new key", "DELETE", NEW_PATH, Map.of(KEY, "k-404"), null, 404,
                        "not-found", null),
                bad("patch with a missing anchor under a new key", "PATCH", STYLE_PATH, Map.of(KEY, "k-422"),
                        "{\"old_text\":\"long\",\"new_text\":\"x\"}", 422, "invalid", "patch-anchor-missing"),
                bad("erase of an entry never held", "POST", NEW_PATH + "/erase", "{}", 404, "not-found", null),
                bad("erase with a reason over 1 KiB", "POST", STYLE_PATH + "/erase", "{\"reason\":\""
                        + "r".repeat(1025) + "\"}", 422, "invalid", "erasure-reason"),
                bad("erase with an unknown member", "POST", STYLE_PATH + "/erase", "{\"why\":\"asked\"}", 422,
                        "invalid", "unknown-member"),
                bad("erase with a malformed body", "POST", STYLE_PATH + "/erase", "{\"reason\":", 400, "malformed",
                        "body-syntax"),
                bad("store bound of zero", "PUT", "/v1/stores/{s}", "{\"max_entry_bytes\":0}", 422, "invalid",
                        "number-range"),
                bad("store bound a string", "PUT", "/v1/stores/{s}", "{\"max_entry_bytes\":\"big\"}", 422,
                        "invalid", "member-type"),
                bad("empty If-Match on a PUT", "PUT", STYLE_PATH, Map.of("If-Match", ""), "{\"content\":\"x\"}",
                        422, "invalid", "if-match-form"),
                bad("empty If-Match on a PATCH", "PATCH", STYLE_PATH, Map.of("If-Match", ""),
                        "{\"old_text\":\"Short answers. S\",\"new_text\":\"S\"}", 422, "invalid", "if-match-form"),
                bad("empty If-Match on a DELETE", "DELETE", STYLE_PATH, Map.of("If-Match", ""), null, 422,
                        "invalid", "if-match-form"),
                bad("empty If-None-Match on a PUT", "PUT", STYLE_PATH, Map.of("If-None-Match", ""),
                        "{\"content\":\"x\"}", 422, "invalid", "if-none-match-form"),
                bad("matrix parameter on the store", "PUT", "/v1/stores/{s};v=2/scopes/user/entries/style",
                        "{\"content\":\"x\"}", 422, "invalid", "path-segment"),
                bad("matrix parameter on the scope", "PATCH", "/v1/stores/{s}/scopes/user;x/entries/style",
                        "{\"old_text\":\"Short answers. S\",\"new_text\":\"S\"}", 422, "invalid", "path-segment"),
                bad("matrix parameter on the name", "DELETE", "/v1/stores/{s}/scopes/user/entries/style;a=b", null,
                        422, "invalid", "path-segment"),
                bad("empty matrix parameter on a read", "GET", "/v1/stores/{s}/scopes/user/entries/style;", null,
                        422, "invalid", "path-segment"),
                // Several rules broken at once: the refusals before a resource is chosen keep one order (content
                // type, matrix parameter, the query's ';', empty precondition), whichever filter holds them.
                new Bad("malformed Content-Type and a matrix parameter on a read", "GET",
                        "/v1/stores/{s}/scopes/user/entries/style;v=2", Map.of("Content-Type", ";;;"), null, 400,
                        "malformed", "content-type"),
                bad("matrix parameter, ';' in the query and an empty If-Match", "DELETE",
                        "/v1/stores/{s}/scopes/user/entries/style;v=2?a=1;b=2", Map.of("If-Match", ""), null, 422,
                        "invalid", "path-segment"),
                bad("';' in the query and an empty If-Match", "DELETE", STYLE_PATH + "?a=1;b=2",
                        Map.of("If-Match", ""), null, 422, "invalid", "query-form"),
                new Bad("overlong UTF-8 (C0 AF for /)", "PUT", STYLE_PATH, Map.of("Content-Type", "application/json"),
                        overlong, 400, "malformed", "body-encoding"),
                new Bad("UTF-16LE body", "PUT", STYLE_PATH, Map.of("Content-Type", "application/json"),
                        "{\"content\":\"x\"}".getBytes(StandardCharsets.UTF_16LE), 400, "malformed", "body-encoding"),
                new Bad("UTF-16 body with a byte order mark", "PUT", STYLE_PATH,
                        Map.of("Content-Type", "application/json"),
                        "{\"content\":\"x\"}".getBytes(StandardCharsets.UTF_16),
                        400, "malformed", "body-encoding"),
                new Bad("UTF-32BE body", "PUT", STYLE_PATH, Map.of("Content-Type", "application/json"),
                        "{\"content\":\"x\"}".getBytes(java.nio.charset.Charset.forName("UTF-32BE")), 400, "malformed",
                        "body-encoding"),
                new Bad("UTF-8 encoded surrogate", "PUT", NEW_PATH, Map.of("Content-Type", "application/json"),
                        surrogate, 400, "malformed", "body-encoding"),
                bad("NUL in a search query", "GET", "/v1/stores/{s}/search?q=a%00b", null, 422, "invalid",
                        "query-nul"),
                bad("manifest bytes over an int", "POST", "/v1/manifests/apply", "{\"record\":{\"entries\":[{\"scope\":"
                        + "\"user\",\"name\":\"a\",\"hash\":\"h\",\"bytes\":99999999999}]}}", 422, "invalid",
                        "manifest-record"),
                bad("manifest keep over an int", "POST", "/v1/manifests/apply", "{\"record\":{\"base\":\"b\","
                        + "\"hash\":\"h\",\"entries\":[{\"keep\":99999999999}]}}", 422, "invalid", "manifest-record")));
        return rows.stream();
    }

    @BeforeEach
    void seed() {
        store = Api.newStore();
        Api.json().body("{\"max_entry_bytes\":64}").put("/v1/stores/" + store).then().statusCode(201);
        Api.json().header(KEY, SEED_KEY).body(SEED_BODY).put(Api.entry(store, "user", "style")).then().statusCode(201);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void refusedWithAProblemAndNothingWritten(Bad bad) throws Exception {
        String before = snapshot();
        RequestSpecification request = given().urlEncodingEnabled(false);
        bad.headers().forEach(request::header);
        if (bad.body() != null) {
            request.body(bad.body());
        }
        var response = request.request(bad.method(), bad.path().replace("{s}", store));
        response.then().statusCode(bad.status())
                .contentType("application/problem+json")
                .body("type", equalTo("https://engram.dev/problems/" + bad.slug()))
                .body("status", equalTo(bad.status()))
                .body("detail", not(emptyOrNullString()));
        if (bad.rule() != null) {
            response.then().body("rule", equalTo(bad.rule()));
        }
        assertEquals(before, snapshot(), "nothing written by: " + bad.label());
    }

    @Test
    void aRefusedFirstWriteDoesNotCreateTheStore() throws Exception {
        String fresh = Api.newStore();
        Api.put(fresh, "user", "a", "{\"content\":\"" + "x".repeat(5000) + "\"}").then().statusCode(413)
                .body("limit", equalTo(4096)).body("size", equalTo(5000)).body("stored", equalTo(-1));
        Api.put(fresh, "User", "a", "{\"content\":\"x\"}").then().statusCode(422);
        given().get("/v1/stores/" + fresh).then().statusCode(404);
        assertEquals("store=none entries=[] journal=0/0", snapshot(fresh));
    }

    @Test
    void aChunkedBodyOverTheLimitGetsTheProblemAndWritesNothing() throws Exception {
        String before = snapshot();
        byte[] body = ("{\"content\":\"" + "x".repeat(1_100_000) + "\"}").getBytes(StandardCharsets.UTF_8);
        HttpRequest put = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port
                + STYLE_PATH.replace("{s}", store)))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + dev.engram.TestAuth.OPERATOR_KEY)
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))).build();
        HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(put, HttpResponse.BodyHandlers.ofString());
        assertEquals(413, response.statusCode());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse(""));
        Map<?, ?> problem = new com.fasterxml.jackson.databind.ObjectMapper().readValue(response.body(), Map.class);
        assertEquals("https://engram.dev/problems/body-too-large", problem.get("type"));
        assertEquals(1024 * 1024, ((Number) problem.get("limit")).intValue());
        assertEquals(before, snapshot());
    }

    /** The seeded store, with its journal's contents and its idempotency keys. */
    private String snapshot() throws Exception {
        try (Connection c = db.getConnection()) {
            String contents = one(c, "select md5(string_agg(content || meta::text || coalesce(erased_by, 0), '|' "
                    + "order by seq)) from journal where store_id = ?", store);
            String keys = one(c, "select coalesce(string_agg(key || '=' || seq || fingerprint, ',' order by key), '') "
                    + "from idempotency where store_id = ?", store);
            return snapshot(store) + " contents=" + contents + " keys=[" + keys + "]";
        }
    }

    /** The store's row, live entries and journal, straight from PostgreSQL. */
    private String snapshot(String id) throws Exception {
        try (Connection c = db.getConnection()) {
            String row = one(c, "select seq || '/' || max_entry_bytes from store where id = ?", id);
            String entries = one(c, "select coalesce(string_agg(scope || '/' || name || '=' || hash || meta::text, ','"
                    + " order by scope, name), '') from entry where store_id = ?", id);
            String journal = one(c, "select count(*) || '/' || coalesce(max(seq), 0) from journal where store_id = ?",
                    id);
            return "store=" + (row == null ? "none" : row) + " entries=[" + entries + "] journal=" + journal;
        }
    }

    private static String one(Connection c, String sql, String id) throws Exception {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, id);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? r.getString(1) : null;
            }
        }
    }
}
