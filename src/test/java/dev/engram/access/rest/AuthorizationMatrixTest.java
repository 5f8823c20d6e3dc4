package dev.engram.access.rest;

import static dev.engram.access.rest.AuthorizationRoutes.ROUTES;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.access.rest.AuthorizationRoutes.Route;
import dev.engram.access.rest.AuthorizationRoutes.Who;
import dev.engram.TestAuth;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every route × every kind of caller: the status each gets; no refused request writes anything (the store's rows,
 * entries, journal, session logs and the key table, read straight from PostgreSQL, are as they were); no refused or
 * cross-tenant answer holds the store's content; a scope-limited key's reads hold nothing outside its scopes; and
 * another tenant's store answers exactly as it did before it existed. The routes and their statuses are in
 * {@link AuthorizationRoutes}.
 */
@QuarkusTest
class AuthorizationMatrixTest {

    static String readOnly;
    static String limited;
    static String other;
    static String revoked;
    static final String BAD = "eng_" + "x".repeat(43);
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @Inject
    AgroalDataSource db;

    @TestHTTPResource("/")
    URI base;

    @BeforeEach
    void keys() {
        if (readOnly == null) {
            readOnly = Keyring.issue("matrix-read-only", "[{\"stores\": \"acme-*\", \"role\": \"read\"}]");
            limited = Keyring.issue("matrix-limited", "[{\"stores\": \"acme-*\", \"role\": \"write\", "
                    + "\"scopes\": [\"user\"], \"read_scopes\": [\"rules\"]}]");
            other = Keyring.issue("matrix-other", "[{\"stores\": \"other-*\", \"role\": \"admin\"}]");
            revoked = Keyring.revoked("matrix-revoked", "[{\"stores\": \"acme-*\", \"role\": \"admin\"}]");
        }
    }

    static Stream<Arguments> cells() {
        List<Arguments> cells = new ArrayList<>();
        for (Route r : ROUTES) {
            for (Who w : Who.values()) {
                cells.add(Arguments.of(r, w));
            }
        }
        return cells.stream();
    }

    @ParameterizedTest(name = "{0} by {1}")
    @MethodSource("cells")
    void eachCallerGetsItsStatusAndARefusalWritesNothing(Route route, Who who) throws Exception {
        String store = "acme-" + UUID.randomUUID().toString().substring(0, 8);
        Answer before = null;
        if (who == Who.OTHER && route.aboutAStore()) {
            String empty = snapshot(store);
            before = send(route, who, store);
            assertEquals(empty, snapshot(store), "nothing written before the store existed");
        }
        seed(store);
        String seeded = snapshot(store);
        Answer a = send(route, who, store);

        assertEquals(route.status(who), a.status(), route + " by " + who + ": " + a.body());
        if (a.status() >= 400) {
            assertEquals(seeded, snapshot(store), "a refused request wrote nothing: " + route + " by " + who);
            assertFalse(a.body().contains("SECRET"), "a refusal shows no content: " + a.body());
        }
        if (a.body().contains("\"is_error\":true")) {
            assertEquals(seeded, snapshot(store), "a tool result that is an error wrote nothing: " + route + " by "
                    + who);
        }
        if (who.compareTo(Who.OTHER) <= 0) {
            assertFalse(a.body().contains("SECRET"), "no cross-tenant read: " + a.body());
        }
        if (who == Who.LIMITED) {
            assertFalse(a.body().contains("SECRET-project"), "a scope-limited key reads only its scopes: " + a.body());
        }
        if (before != null) {
            assertEquals(before, a, "another tenant's store answers as a store that does not exist");
        }
        if (a.status() == 401) {
            assertTrue(a.wwwAuthenticate().startsWith("Bearer"), a.wwwAuthenticate());
        }
    }

    /** Status, problem body (its instance aside, which names the path) and WWW-Authenticate of one answer. */
    record Answer(int status, String body, String wwwAuthenticate) {
    }

    private Answer send(Route route, Who who, String store) throws Exception {
        String path = route.path().replace("{s}", store).replace("{store}", store);
        if (route.stream()) {
            return stream(path, route.accept(), token(who));
        }
        RequestSpecification r = given().redirects().follow(false);
        String token = token(who);
        if (token == null) {
            r = r.filter(TestAuth.NO_TOKEN);
        } else {
            r = r.header("Authorization", "Bearer " + token);
        }
        if (route.accept() != null) {
            r = r.accept(route.accept());
        }
        if (AuthorizationRoutes.ARCHIVE.equals(route.body())) {
            r = r.contentType("application/gzip").body(dev.engram.stores.files.rest.Tars.files(Map.of(
                    "user/fresh.md", "---\nname: fresh\n---\nSECRET-imported\n")));
        } else if (route.body() != null) {
            r = r.contentType("application/json").body(route.body());
        } else if (!route.method().equals("GET") && !route.method().equals("DELETE")) {
            r = r.contentType("application/json");
        }
        if (route.label().endsWith(" once")) {
            r = r.header("Idempotency-Key", "matrix-" + store);
        }
        Response res = r.request(route.method(), path);
        String www = res.header("WWW-Authenticate");
        return new Answer(res.statusCode(), res.asString(), www == null ? "" : www);
    }

    /** A streaming route: the status and, when refused, the body; an accepted stream is closed at once. */
    private Answer stream(String path, String accept, String token) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10));
        if (accept != null) {
            req.header("Accept", accept);
        }
        if (token != null) {
            req.header("Authorization", "Bearer " + token);
        }
        HttpResponse<java.io.InputStream> res = HTTP.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
        String body = "";
        try (java.io.InputStream in = res.body()) {
            if (res.statusCode() >= 300) {
                body = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        return new Answer(res.statusCode(), body, res.headers().firstValue("WWW-Authenticate").orElse(""));
    }

    private static String token(Who who) {
        return switch (who) {
            case NONE -> null;
            case BAD -> BAD;
            case REVOKED -> revoked;
            case OTHER -> other;
            case READ_ONLY -> readOnly;
            case LIMITED -> limited;
            case ADMIN -> TestAuth.OPERATOR_KEY;
        };
    }

    /** Entries in three scopes, and a session that was shown them. */
    private static void seed(String store) {
        for (Map.Entry<String, String> e : Map.of("user/style", "SECRET-user", "rules/tone", "SECRET-rules",
                "project/build", "SECRET-project").entrySet()) {
            String[] scopeAndName = e.getKey().split("/");
            given().contentType("application/json").body("{\"content\": \"" + e.getValue() + " text\"}")
                    .put("/v1/stores/" + store + "/scopes/" + scopeAndName[0] + "/entries/" + scopeAndName[1])
                    .then().statusCode(201);
        }
        given().contentType("application/json").body("{\"id\": \"m-1\", \"content\": \"SECRET-memory fact\"}")
                .post("/v1/stores/" + store + "/memories").then().statusCode(201);
        given().contentType("application/json")
                .post("/v1/stores/" + store + "/sessions/s1/render?scope=user&scope=rules&scope=project").then()
                .statusCode(200);
        given().contentType("application/json").body("{}").put("/v1/stores/" + store + "/contexts/c-1").then()
                .statusCode(201);
        given().contentType("application/json").body("{\"steps\": [{\"thought\": \"SECRET-context\", \"action\": "
                + "{\"id\": \"c1\", \"name\": \"read_file\"}, \"observation\": \"SECRET-file\", \"cache\": true}]}")
                .post("/v1/stores/" + store + "/contexts/c-1/steps").then().statusCode(200);
        given().contentType("application/json").body("{\"memory\": {\"scopes\": [\"user\", \"rules\", "
                + "\"project\"]}}").put("/v1/stores/" + store + "/contexts/c-m").then().statusCode(201);
        for (String[] doc : new String[][] {{"/memories/user/notes.md", "SECRET-user notes"},
                {"/memories/project/plan.md", "SECRET-project plan"}}) {
            given().contentType("application/json").body("{\"command\": \"create\", \"path\": \"" + doc[0]
                    + "\", \"file_text\": \"" + doc[1] + "\"}").post("/v1/stores/" + store + "/memory-tool").then()
                    .statusCode(200).body("is_error", org.hamcrest.Matchers.is(false));
        }
    }

    /** Everything PostgreSQL holds about {@code store}, and how many keys there are. */
    private String snapshot(String store) throws Exception {
        try (Connection c = db.getConnection()) {
            return String.join("\n",
                    one(c, "select coalesce(string_agg(seq || '/' || max_entry_bytes, ','), 'none') from store "
                            + "where id = ?", store),
                    one(c, "select coalesce(string_agg(scope || '/' || name || '=' || hash, ',' order by scope, "
                            + "name), '') from entry where store_id = ?", store),
                    one(c, "select count(*) || '/' || coalesce(max(seq), 0) from journal where store_id = ?", store),
                    one(c, "select count(*) || '/' || coalesce(max(hash), '') from session_manifest "
                            + "where store_id = ?", store),
                    one(c, "select count(*) || '' from session_state where store_id = ?", store),
                    one(c, "select count(*) || '' from idempotency where store_id = ?", store),
                    one(c, "select coalesce(md5(string_agg(id || content || archived::text || revisions::text, ',' "
                            + "order by id)), '') from memory where store_id = ?", store),
                    one(c, "with t(id) as (select ?::text) select (select count(*) from bank_slot, t where store_id "
                            + "= t.id) || '/' || (select count(*) from bank_settings, t where store_id = t.id) || '/' "
                            + "|| (select count(*) from mental_model, t where store_id = t.id)", store),
                    one(c, "select count(*) || '/' || coalesce(md5(string_agg(config::text || state, ',' order by id)), "
                            + "'') from context where store_id = ?", store),
                    one(c, "select count(*) || '' from tool_result where store_id = ?", store),
                    one(c, "select count(*) || '/' || coalesce(md5(string_agg(id || path || sha256 || version, ',' "
                            + "order by id)), '') from document where store_id = ?", store),
                    one(c, "select count(*) || '' from store_profile where store_id = ?", store),
                    one(c, "select count(*) || '/' || count(revoked_at) from api_key where ? <> ''", store));
        }
    }

    private static String one(Connection c, String sql, String store) throws Exception {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, store);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getString(1);
            }
        }
    }
}
