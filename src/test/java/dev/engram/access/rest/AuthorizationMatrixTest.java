package dev.engram.access.rest;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * another tenant's store answers exactly as it did before it existed.
 */
@QuarkusTest
class AuthorizationMatrixTest {

    /** The callers, in the order of each route's expected statuses. */
    enum Who {
        NONE, BAD, REVOKED, OTHER, READ_ONLY, LIMITED, ADMIN
    }

    /** One route: {@code {s}} in the path is the cell's store; {@code expected} one status per {@link Who}. */
    record Route(String label, String method, String path, String body, String accept, String expected) {

        boolean stream() {
            return "text/event-stream".equals(accept) || path.startsWith("/mcp/sse");
        }

        boolean aboutAStore() {
            return path.contains("{s}");
        }

        int status(Who who) {
            return Integer.parseInt(expected.trim().split("\\s+")[who.ordinal()]);
        }

        @Override
        public String toString() {
            return label;
        }
    }

    static Route route(String label, String method, String path, String body, String expected) {
        return new Route(label, method, path, body, null, expected);
    }

    static final String S = "/v1/stores/{s}";

    /** Statuses by caller:                      none bad revoked other read-only limited admin */
    static final List<Route> ROUTES = List.of(
            route("configure store", "PUT", S, "{\"max_entry_bytes\": 2048}", "401 401 401 404 403 403 200"),
            route("store and counts", "GET", S, null, "401 401 401 404 200 403 200"),
            route("list user", "GET", S + "/scopes/user/entries", null, "401 401 401 404 200 200 200"),
            route("list project", "GET", S + "/scopes/project/entries", null, "401 401 401 404 200 403 200"),
            route("get user entry", "GET", S + "/scopes/user/entries/style", null, "401 401 401 404 200 200 200"),
            route("get read-only scope entry", "GET", S + "/scopes/rules/entries/tone", null,
                    "401 401 401 404 200 200 200"),
            route("get project entry", "GET", S + "/scopes/project/entries/build", null,
                    "401 401 401 404 200 403 200"),
            route("put user entry", "PUT", S + "/scopes/user/entries/fresh", "{\"content\": \"new\"}",
                    "401 401 401 404 403 201 201"),
            route("put read-only scope entry", "PUT", S + "/scopes/rules/entries/fresh", "{\"content\": \"new\"}",
                    "401 401 401 404 403 403 201"),
            route("patch user entry", "PATCH", S + "/scopes/user/entries/style",
                    "{\"old_text\": \"SECRET\", \"new_text\": \"OPEN\"}", "401 401 401 404 403 200 200"),
            route("forget user entry", "DELETE", S + "/scopes/user/entries/style", null,
                    "401 401 401 404 403 200 200"),
            route("forget project entry", "DELETE", S + "/scopes/project/entries/build", null,
                    "401 401 401 404 403 403 200"),
            route("erase user entry", "POST", S + "/scopes/user/entries/style/erase", "{\"reason\": \"asked\"}",
                    "401 401 401 404 403 403 200"),
            route("put user entry once", "PUT", S + "/scopes/user/entries/once", "{\"content\": \"new\"}",
                    "401 401 401 404 403 201 201"),
            route("search", "GET", S + "/search?q=secret", null, "401 401 401 404 200 200 200"),
            route("search project", "GET", S + "/search?q=secret&scope=project", null,
                    "401 401 401 404 200 403 200"),
            route("search by relevance", "GET", S + "/search?q=secret&order=relevance&offset=0", null,
                    "401 401 401 404 200 200 200"),
            route("search project by relevance", "GET", S + "/search?q=secret&scope=project&order=relevance", null,
                    "401 401 401 404 200 403 200"),
            route("journal", "GET", S + "/journal", null, "401 401 401 404 200 403 200"),
            new Route("journal as NDJSON", "GET", S + "/journal", null, "application/x-ndjson",
                    "401 401 401 404 200 403 200"),
            new Route("journal followed (SSE)", "GET", S + "/journal", null, "text/event-stream",
                    "401 401 401 404 200 403 200"),
            route("lost updates", "GET", S + "/lost-updates", null, "401 401 401 404 200 403 200"),
            route("render user", "GET", S + "/render?scope=user", null, "401 401 401 404 200 200 200"),
            route("render every scope", "GET", S + "/render", null, "401 401 401 404 200 200 200"),
            route("render project", "GET", S + "/render?scope=project", null, "401 401 401 404 200 403 200"),
            route("render for a session", "POST", S + "/sessions/s2/render?scope=user", null,
                    "401 401 401 404 403 200 200"),
            route("render project for a session", "POST", S + "/sessions/s2/render?scope=project", null,
                    "401 401 401 404 403 403 200"),
            route("render for a session, block left out", "POST", S + "/sessions/s2/render?scope=user&omit=block",
                    null, "401 401 401 404 403 200 200"),
            route("render project for a session, block left out", "POST",
                    S + "/sessions/s2/render?scope=project&omit=block", null, "401 401 401 404 403 403 200"),
            route("session manifests", "GET", S + "/sessions/s1/manifests", null, "401 401 401 404 200 403 200"),
            route("tools", "GET", S + "/tools?scope=user&read_scope=rules", null, "401 401 401 404 403 200 200"),
            route("tools on project", "GET", S + "/tools?scope=project", null, "401 401 401 404 403 403 200"),
            route("recall tools alone", "GET", S + "/tools?bank=user:alice", null, "401 401 401 404 200 403 200"),
            route("tool_result_read alone", "GET", S + "/tools?context=c-1", null, "401 401 401 404 200 403 200"),
            route("tool call", "POST", S + "/tools/call", "{\"name\": \"memory_save\", \"arguments\": {\"scope\": "
                    + "\"user\", \"name\": \"t\", \"content\": \"x\"}, \"scopes\": [\"user\"]}",
                    "401 401 401 404 403 200 200"),
            route("tool call on project", "POST", S + "/tools/call", "{\"name\": \"memory_search\", \"arguments\": "
                    + "{\"query\": \"secret\"}, \"scopes\": [\"project\"]}", "401 401 401 404 403 403 200"),
            route("save a memory", "POST", S + "/memories", "{\"content\": \"a new fact\"}",
                    "401 401 401 404 403 403 201"),
            route("save memories in a batch", "POST", S + "/memories/batch", "{\"memories\": [{\"content\": "
                    + "\"a new fact\", \"bank\": \"user:alice\"}]}", "401 401 401 404 403 403 201"),
            route("list memories", "GET", S + "/memories", null, "401 401 401 404 200 403 200"),
            route("search memories", "POST", S + "/memories/search", "{\"query\": \"secret\"}",
                    "401 401 401 404 200 403 200"),
            route("search memories, explained", "POST", S + "/memories/search", "{\"query\": \"secret\", "
                    + "\"ranking\": \"lexical\", \"explain\": true}", "401 401 401 404 200 403 200"),
            route("recall status", "GET", S + "/recall", null, "401 401 401 404 200 403 200"),
            route("archive a memory", "POST", S + "/memories/m-1/archive", "{\"reason\": \"old\"}",
                    "401 401 401 404 403 403 200"),
            route("clear memories", "DELETE", S + "/memories", null, "401 401 401 404 403 403 200"),
            route("get a memory", "GET", S + "/memories/m-1", null, "401 401 401 404 200 403 200"),
            route("bank entrypoint", "GET", S + "/banks/global/entrypoint", null, "401 401 401 404 200 403 200"),
            route("set a slot", "PUT", S + "/banks/user:alice/slots/SOUL", "{\"text\": \"be brief\"}",
                    "401 401 401 404 403 403 200"),
            route("configure a bank", "PUT", S + "/banks/user:alice/config", "{\"mission\": \"m\"}",
                    "401 401 401 404 403 403 200"),
            route("reflect a bank", "POST", S + "/banks/user:alice/reflect", "{\"reflector\": \"deterministic\"}",
                    "401 401 401 404 403 403 200"),
            route("list mental models", "GET", S + "/mental-models", null, "401 401 401 404 200 403 200"),
            route("save a mental model", "PUT", S + "/mental-models/mm-1", "{\"content\": \"c\"}",
                    "401 401 401 404 403 403 200"),
            route("memory_recall tool", "POST", S + "/tools/call", "{\"name\": \"memory_recall\", \"bank\": "
                    + "\"global\", \"arguments\": {\"query\": \"secret\"}}", "401 401 401 404 200 403 200"),
            route("memory_recall tool, bank as scope", "POST", S + "/tools/call", "{\"name\": \"memory_recall\", "
                    + "\"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"arguments\": {\"query\": \"secret\"}}",
                    "401 401 401 404 200 403 200"),
            route("memory_remember tool", "POST", S + "/tools/call", "{\"name\": \"memory_remember\", \"bank\": "
                    + "\"global\", \"arguments\": {\"content\": \"x\"}}", "401 401 401 404 403 403 200"),
            route("configure a context", "PUT", S + "/contexts/c-2", "{\"strategy\": {\"name\": \"summarization\"}}",
                    "401 401 401 404 403 403 201"),
            route("get a context", "GET", S + "/contexts/c-1", null, "401 401 401 404 200 403 200"),
            route("append context steps", "POST", S + "/contexts/c-1/steps", "{\"steps\": [{\"thought\": \"t\"}]}",
                    "401 401 401 404 403 403 200"),
            route("append context steps, compacting, with the prompt", "POST", S + "/contexts/c-1/steps?prompt="
                    + "anthropic&compact=auto", "{\"steps\": [{\"thought\": \"t\"}]}", "401 401 401 404 403 403 200"),
            route("set a context's plan", "PUT", S + "/contexts/c-1/plan", "{\"text\": \"p\"}",
                    "401 401 401 404 403 403 200"),
            route("a context's prompt", "GET", S + "/contexts/c-1/prompt", null, "401 401 401 404 200 403 200"),
            route("a context's prompt for anthropic", "GET", S + "/contexts/c-1/prompt?format=anthropic", null,
                    "401 401 401 404 200 403 200"),
            route("a context's prompt for openai-chat", "GET", S + "/contexts/c-1/prompt?format=openai-chat", null,
                    "401 401 401 404 200 403 200"),
            route("a context's fill", "GET", S + "/contexts/c-1/fill", null, "401 401 401 404 200 403 200"),
            route("configure a context with memory", "PUT", S + "/contexts/c-3", "{\"memory\": {\"scopes\": "
                    + "[\"user\"]}}", "401 401 401 404 403 403 201"),
            route("a context's prompt with memory", "GET", S + "/contexts/c-m/prompt", null,
                    "401 401 401 404 200 403 200"),
            route("compact a context", "POST", S + "/contexts/c-1/compact", null, "401 401 401 404 403 403 200"),
            route("a cached tool result", "GET", S + "/contexts/c-1/tool-results/" + dev.engram.contexts.cache
                    .ToolResultCache.contentHash("read_file", "SECRET-file").substring(0, 4), null,
                    "401 401 401 404 200 403 200"),
            route("tool_result_read tool", "POST", S + "/tools/call", "{\"name\": \"tool_result_read\", "
                    + "\"context\": \"c-1\", \"arguments\": {\"hash\": \"" + dev.engram.contexts.cache.ToolResultCache
                    .contentHash("read_file", "SECRET-file").substring(0, 4) + "\"}}", "401 401 401 404 200 403 200"),
            route("set a context's task", "PUT", S + "/contexts/c-1/task", "{\"text\": \"t\"}",
                    "401 401 401 404 403 403 200"),
            route("set a context's prior conversation", "PUT", S + "/contexts/c-1/prior-conversation",
                    "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}", "401 401 401 404 403 403 200"),
            route("set a context's interjection", "PUT", S + "/contexts/c-1/interjection", "{\"text\": \"stop\"}",
                    "401 401 401 404 403 403 200"),
            route("consume a context's interjection", "DELETE", S + "/contexts/c-1/interjection", null,
                    "401 401 401 404 403 403 200"),
            route("a context's steps", "GET", S + "/contexts/c-1/steps", null, "401 401 401 404 200 403 200"),
            route("a context's vulnerable outputs", "GET", S + "/contexts/c-1/vulnerable-outputs", null,
                    "401 401 401 404 200 403 200"),
            route("cache a tool result", "POST", S + "/contexts/c-1/tool-results", "{\"tool_name\": \"grep\", "
                    + "\"content\": \"x\"}", "401 401 401 404 403 403 200"),
            route("replace context steps", "PUT", S + "/contexts/c-1/steps", "{\"steps\": [{\"thought\": \"t\"}]}",
                    "401 401 401 404 403 403 200"),
            route("delete a context", "DELETE", S + "/contexts/c-1", null, "401 401 401 404 403 403 204"),
            route("manifest helpers", "POST", "/v1/manifests/fold", "{\"records\": []}",
                    "401 401 401 200 200 200 200"),
            route("stateless compaction", "POST", "/v1/compact", "{\"format\": \"openai-chat\", \"messages\": "
                    + "[{\"role\": \"user\", \"content\": \"hi\"}], \"strategy\": {\"name\": \"summarization\", "
                    + "\"summarizer\": \"none\"}}", "401 401 401 200 200 200 200"),
            route("list keys", "GET", "/v1/keys", null, "401 401 401 403 403 403 200"),
            route("issue a key", "POST", "/v1/keys", "{\"name\": \"made\", \"grants\": [{\"stores\": \"acme-*\", "
                    + "\"role\": \"read\"}]}", "401 401 401 403 403 403 201"),
            route("revoke a key", "DELETE", "/v1/keys/key_no-such-key-here", null, "401 401 401 403 403 403 404"),
            new Route("MCP initialize", "POST", "/mcp?store={store}&scope=user", "{\"jsonrpc\": \"2.0\", \"id\": 1, "
                    + "\"method\": \"initialize\", \"params\": {\"protocolVersion\": \"2025-06-18\", "
                    + "\"capabilities\": {}, \"clientInfo\": {\"name\": \"t\", \"version\": \"1\"}}}",
                    "application/json, text/event-stream", "401 401 401 200 200 200 200"),
            route("MCP legacy SSE transport", "GET", "/mcp/sse", null, "401 401 401 200 200 200 200"),
            route("metrics", "GET", "/q/metrics", null, "401 401 401 403 403 403 200"),
            route("OpenAPI", "GET", "/q/openapi", null, "401 401 401 403 403 403 200"),
            route("Swagger UI", "GET", "/q/swagger-ui/", null, "401 401 401 403 403 403 200"),
            route("an unknown path", "GET", "/nothing-here", null, "401 401 401 404 404 404 404"),
            route("health", "GET", "/q/health/live", null, "200 200 200 200 200 200 200"),
            route("OAuth protected resource metadata (none)", "GET", "/.well-known/oauth-protected-resource", null,
                    "404 404 404 404 404 404 404"),
            route("OAuth protected resource metadata of /mcp (none)", "GET",
                    "/.well-known/oauth-protected-resource/mcp", null, "404 404 404 404 404 404 404"),
            route("OAuth authorization server metadata (none)", "GET", "/.well-known/oauth-authorization-server",
                    null, "404 404 404 404 404 404 404"),
            route("OpenID discovery (none)", "GET", "/.well-known/openid-configuration", null,
                    "404 404 404 404 404 404 404"));

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
        if (route.body() != null) {
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
