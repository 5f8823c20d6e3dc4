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
 * entries, journal, session logs, documents, its memory store profile, the key table and the count of every store,
 * read straight from PostgreSQL, are as they were); no refused or cross-tenant answer holds the store's content; a
 * scope-limited key's reads hold nothing outside its scopes; another tenant's store answers exactly as it did before
 * it existed; and the Memory Stores API (beta header sent, the key in x-api-key) refuses in Anthropic's error
 * envelope. The routes and their statuses are in {@link AuthorizationRoutes}.
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
        Answer before = null;
        String store = who == Who.OTHER && route.aboutAStore() ? null : UNCHANGED.get(route.archived()).poll();
        if (store == null) {
            store = "acme-" + UUID.randomUUID().toString().substring(0, 8);
            if (who == Who.OTHER && route.aboutAStore()) {
                String empty = snapshot(store);
                before = send(route, who, store, UNSEEDED);
                assertEquals(empty, snapshot(store), "nothing written before the store existed");
            }
            seed(store, route.archived());
        }
        Map<String, String> ids = route.path().contains("{mem:") || route.path().contains("{ver:")
                ? IDS.computeIfAbsent(store, AuthorizationMatrixTest::ids) : Map.of();
        String seeded = snapshot(store);
        Answer a = send(route, who, store, ids);

        assertEquals(route.status(who), a.status(), route + " by " + who + ": " + a.body());
        if (a.status() >= 400) {
            assertEquals(seeded, snapshot(store), "a refused request wrote nothing: " + route + " by " + who);
            // The console's conflict page (409) shows the current version to a caller who may read it.
            boolean conflictPage = a.status() == 409 && route.path().startsWith("/console");
            assertFalse(a.body().contains("SECRET") && !conflictPage, "a refusal shows no content: " + a.body());
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
        if (a.status() == 401 && !route.path().startsWith("/console")) {
            assertTrue(a.wwwAuthenticate().startsWith("Bearer"), a.wwwAuthenticate());
        }
        if (route.anthropic() && a.status() >= 400) {
            envelope(a);
        }
        if (a.status() >= 400 || a.body().contains("\"is_error\":true")) {
            UNCHANGED.get(route.archived()).push(store);
        }
    }

    /**
     * Seeded stores that no cell has changed, archived or not. A cell that is refused, or answered with a tool
     * error, has just checked that it wrote nothing, so its store is still as seeded and serves a later cell in
     * place of a new one. Another tenant's cell on a store route always starts from a store that does not exist.
     */
    private static final Map<Boolean, java.util.Deque<String>> UNCHANGED = Map.of(false, new java.util.ArrayDeque<>(),
            true, new java.util.ArrayDeque<>());

    /** The ids of the seeded memories and versions of each seeded store, read once. */
    private static final Map<String, Map<String, String>> IDS = new java.util.HashMap<>();

    /**
     * A refusal of the Memory Stores API is Anthropic's error envelope: its error type is the one of its status, its
     * message says something, and its request id is the one of the request-id header.
     */
    private static void envelope(Answer a) throws Exception {
        com.fasterxml.jackson.databind.JsonNode e = JSON.readTree(a.body());
        assertEquals("error", e.path("type").asText(), a.body());
        String type = switch (a.status()) {
            case 400 -> "invalid_request_error";
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            default -> "(status " + a.status() + ")";
        };
        assertEquals(type, e.path("error").path("type").asText(), a.body());
        assertFalse(e.path("error").path("message").asText().isBlank(), a.body());
        assertTrue(a.requestId().matches("req_[0-9a-f]{24}"), "request-id " + a.requestId());
        assertEquals(a.requestId(), e.path("request_id").asText(), a.body());
    }

    /**
     * Status, body and WWW-Authenticate of one answer, as two answers are compared; and its request-id header. An
     * error envelope's request id names the one request, so two answers are equal whatever their request ids.
     */
    record Answer(int status, String body, String wwwAuthenticate, String requestId) {

        @Override
        public boolean equals(Object o) {
            return o instanceof Answer a && a.status == status && a.wwwAuthenticate.equals(wwwAuthenticate)
                    && a.comparable().equals(comparable());
        }

        @Override
        public int hashCode() {
            return comparable().hashCode();
        }

        private String comparable() {
            return requestId.isEmpty() ? body : body.replace("\"" + requestId + "\"", "\"(this request)\"");
        }
    }

    static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    static final String MEMORY_STORES = AuthorizationRoutes.M;
    static final String BETA = "agent-memory-2026-07-22";

    /**
     * What the memory and version slots name before the store is seeded (another tenant's first request): ids of
     * their form that name nothing, so the answer after seeding may not differ by the ids either.
     */
    static final Map<String, String> UNSEEDED = Map.of("{mem:user}", "mem_" + "0".repeat(24), "{mem:project}",
            "mem_" + "1".repeat(24), "{ver:old}", "memver_1", "{ver:current}", "memver_2");

    /** A request of the operator to the Memory Stores API. */
    private static RequestSpecification anthropic() {
        return given().header("anthropic-beta", BETA).contentType("application/json");
    }

    private Answer send(Route route, Who who, String store, Map<String, String> ids) throws Exception {
        String path = route.path().replace("{s}", store).replace("{store}", store);
        for (Map.Entry<String, String> id : ids.entrySet()) {
            path = path.replace(id.getKey(), id.getValue());
        }
        assertFalse(path.contains("{mem:") || path.contains("{ver:"), "every slot of " + path + " is filled");
        if (route.stream()) {
            return stream(path, route.accept(), token(who));
        }
        if (route.path().startsWith("/console")) {
            return console(route, who, path);
        }
        RequestSpecification r = given().redirects().follow(false);
        String token = token(who);
        if (route.anthropic()) {
            r = r.header("anthropic-beta", BETA);
        }
        if (token == null) {
            r = r.filter(TestAuth.NO_TOKEN);
        } else if (route.anthropic() && !route.label().endsWith("(Bearer)")) {
            r = r.filter(TestAuth.NO_TOKEN).header("x-api-key", token);
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
        String requestId = res.header("request-id");
        return new Answer(res.statusCode(), res.asString(), www == null ? "" : www,
                requestId == null ? "" : requestId);
    }

    private static final java.util.Map<Who, java.util.Optional<dev.engram.console.ConsoleClient>> SESSIONS =
            new java.util.EnumMap<>(Who.class);

    /** The console session {@code who}'s key signs in to; none for a missing, bad or revoked key. */
    private java.util.Optional<dev.engram.console.ConsoleClient> session(Who who) {
        String token = token(who);
        if (token == null || dev.engram.console.ConsoleClient.trySignIn(token).statusCode() != 303) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(dev.engram.console.ConsoleClient.signIn(token));
    }

    /**
     * A console page, sent as a browser sends it: with the console session the caller's key signs in to (none for a
     * missing, bad or revoked key), and a form with the session's token.
     */
    private Answer console(Route route, Who who, String path) {
        // A caller's session is opened once and kept for its other cells, but for signing out, which ends it.
        dev.engram.console.ConsoleClient client = path.endsWith("/sign-out") ? session(who).orElse(null)
                : SESSIONS.computeIfAbsent(who, this::session).orElse(null);
        RequestSpecification r = client != null ? client.request()
                : given().filter(TestAuth.NO_TOKEN).redirects().follow(false);
        if (route.body() != null && route.body().startsWith(AuthorizationRoutes.FORM)) {
            r = r.contentType("application/x-www-form-urlencoded").formParam("csrf", client == null ? "none"
                    : client.csrf());
            for (String field : route.body().substring(AuthorizationRoutes.FORM.length()).split("&")) {
                if (!field.isEmpty()) {
                    String[] kv = field.split("=", 2);
                    r = r.formParam(kv[0], kv.length > 1 ? kv[1] : "");
                }
            }
        }
        Response res = r.request(route.method(), path);
        return new Answer(res.statusCode(), res.asString(), "", "");
    }

    /**
     * A streaming route: the status and, when refused, the body; an accepted stream is closed at once. A console
     * stream is opened as the browser's EventSource opens it: with the session cookie the caller's key signs in to
     * (none for a missing, bad or revoked key), and no Authorization.
     */
    private Answer stream(String path, String accept, String token) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10));
        if (accept != null) {
            req.header("Accept", accept);
        }
        if (path.startsWith("/console")) {
            Response in = token == null ? null : dev.engram.console.ConsoleClient.trySignIn(token);
            if (in != null && in.statusCode() == 303) {
                req.header("Cookie", "engram_console=" + in.getCookie("engram_console"));
            }
        } else if (token != null) {
            req.header("Authorization", "Bearer " + token);
        }
        HttpResponse<java.io.InputStream> res = HTTP.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
        String body = "";
        try (java.io.InputStream in = res.body()) {
            if (res.statusCode() >= 300) {
                body = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        return new Answer(res.statusCode(), body, res.headers().firstValue("WWW-Authenticate").orElse(""),
                res.headers().firstValue("request-id").orElse(""));
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

    /**
     * Entries in three scopes, a session that was shown them, memories, a context, documents (/user/notes.md and
     * /project/plan.md, the plan edited once so that its first version is no longer its current one) and the store's
     * profile as a memory store; then the store archived, when {@code archived}.
     */
    private static void seed(String store, boolean archived) {
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
        given().contentType("application/json").body("{\"command\": \"str_replace\", \"path\": "
                + "\"/memories/project/plan.md\", \"old_str\": \"plan\", \"new_str\": \"plan, edited\"}")
                .post("/v1/stores/" + store + "/memory-tool").then().statusCode(200)
                .body("is_error", org.hamcrest.Matchers.is(false));
        anthropic().body("{\"name\": \"SECRET-store name\", \"description\": \"SECRET-store description\", "
                + "\"metadata\": {\"team\": \"SECRET-store team\"}}").post(MEMORY_STORES + "/memstore_" + store)
                .then().statusCode(200).body("name", org.hamcrest.Matchers.is("SECRET-store name"));
        if (archived) {
            anthropic().post(MEMORY_STORES + "/memstore_" + store + "/archive").then().statusCode(200)
                    .body("archived_at", org.hamcrest.Matchers.notNullValue());
        }
    }

    /** The ids of the seeded memories and of the plan's versions (newest first), as the slots of the routes name them. */
    private static Map<String, String> ids(String store) {
        String ms = MEMORY_STORES + "/memstore_" + store;
        io.restassured.path.json.JsonPath listed = anthropic().get(ms + "/memories").then().statusCode(200).extract()
                .jsonPath();
        List<String> paths = listed.getList("data.path");
        List<String> memories = listed.getList("data.id");
        String user = memories.get(paths.indexOf("/user/notes.md"));
        String project = memories.get(paths.indexOf("/project/plan.md"));
        List<String> versions = anthropic().get(ms + "/memory_versions?memory_id=" + project).then().statusCode(200)
                .extract().path("data.id");
        assertEquals(2, versions.size(), "the plan was created and edited: " + versions);
        return Map.of("{mem:user}", user, "{mem:project}", project, "{ver:current}", versions.get(0), "{ver:old}",
                versions.get(1));
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
                    one(c, "select count(*) || '/' || coalesce(md5(string_agg(name || '|' || description || '|' "
                            + "|| metadata::text || '|' || updated_at || '|' || coalesce(archived_at::text, 'live'), "
                            + "',')), '') from store_profile where store_id = ?", store),
                    // a redaction or an erasure rewrites records in place
                    one(c, "select coalesce(md5(string_agg(content || coalesce(record::text, '') || coalesce("
                            + "erased_by::text, ''), ',' order by seq)), '') from journal where store_id = ?", store),
                    // a store's creation writes another store: the figures of every store, profile and creator
                    one(c, "select (select count(*) from store) || '/' || (select count(*) from store_profile) || '/' "
                            + "|| (select count(*) from store_creator) where ? <> ''", store),
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
