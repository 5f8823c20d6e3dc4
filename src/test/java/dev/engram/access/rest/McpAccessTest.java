package dev.engram.access.rest;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.TestAuth;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** MCP connections: a key's grant bounds the store and scopes a connection may name; no token, no connection. */
@QuarkusTest
class McpAccessTest {

    @RegisterExtension
    final dev.engram.ErrorLog errors = new dev.engram.ErrorLog();

    static final String ACCEPT = "application/json, text/event-stream";

    String store = "acme-" + UUID.randomUUID().toString().substring(0, 8);
    int id;

    /** Initializes a connection at {@code url} with {@code key} and calls {@code tool}; returns the call's result. */
    JsonPath call(String url, String key, String tool, String arguments) {
        return rpc(url, key, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}");
    }

    /** Initializes a connection at {@code url} with {@code key} and sends one request; returns its answer. */
    JsonPath rpc(String url, String key, String method, String params) {
        Response init = post(url, key, null, "{\"jsonrpc\":\"2.0\",\"id\":" + (++id) + ",\"method\":\"initialize\","
                + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\","
                + "\"version\":\"1\"}}}");
        assertEquals(200, init.statusCode(), init.asString());
        String session = init.header("Mcp-Session-Id");
        post(url, key, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        Response r = post(url, key, session, "{\"jsonrpc\":\"2.0\",\"id\":" + (++id) + ",\"method\":\"" + method
                + "\",\"params\":" + params + "}");
        assertEquals(200, r.statusCode(), r.asString());
        return json(r);
    }

    static JsonPath json(Response r) {
        String body = r.asString();
        if (!body.startsWith("{")) {
            body = body.lines().filter(l -> l.startsWith("data:")).reduce((a, b) -> b).orElseThrow().substring(5);
        }
        return new JsonPath(body);
    }

    static Response post(String url, String key, String session, String body) {
        var r = given().contentType("application/json").accept(ACCEPT).header("Authorization", "Bearer " + key)
                .body(body);
        if (session != null) {
            r.header("Mcp-Session-Id", session);
        }
        return r.post(url);
    }

    /**
     * MCP keeps no Idempotency-Key: a POST that carries one, to the endpoint or to any path under it, is refused
     * before it runs; a path that only begins with the same letters is not MCP's.
     */
    @Test
    void anIdempotencyKeyIsRefusedOnTheEndpointAndUnderIt() {
        String key = Keyring.issue("mcp-keys", "[{\"stores\": \"acme-*\", \"role\": \"write\"}]");
        for (String path : new String[] {"/mcp?store=" + store + "&scope=user", "/mcp/anything"}) {
            Response r = given().contentType("application/json").accept(ACCEPT).header("Authorization", "Bearer " + key)
                    .header("Idempotency-Key", "k-1").body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")
                    .post(path);
            assertEquals(422, r.statusCode(), path + ": " + r.asString());
            assertEquals("idempotency-key-not-taken", r.jsonPath().getString("rule"), path);
        }
        Response other = given().contentType("application/json").header("Authorization", "Bearer " + key)
                .header("Idempotency-Key", "k-1").body("{}").post("/mcpx");
        assertEquals(404, other.statusCode(), other.asString());
    }

    @Test
    void aConnectionMayNameOnlyScopesItsKeyIsGranted() {
        String limited = Keyring.issue("mcp-limited", "[{\"stores\": \"acme-*\", \"role\": \"write\", "
                + "\"scopes\": [\"user\"], \"read_scopes\": [\"rules\"]}]");
        JsonPath ok = call("/mcp?store=" + store + "&scope=user&read_scope=rules", limited, "memory_save",
                "{\"scope\":\"user\",\"name\":\"style\",\"content\":\"Short answers.\"}");
        assertFalse(ok.getBoolean("result.isError"), ok.prettify());

        JsonPath wider = call("/mcp?store=" + store + "&scope=user&scope=project", limited, "memory_search",
                "{\"query\":\"short\"}");
        assertTrue(wider.getBoolean("result.isError"), wider.prettify());
        assertEquals("This key may not use scope project as asked in store " + store + ". It may write scope user "
                + "and read scopes rules, user. Ask for those scopes only.", wider.getString("result.content[0].text"));

        JsonPath writeReadOnly = call("/mcp?store=" + store + "&scope=rules", limited, "memory_save",
                "{\"scope\":\"rules\",\"name\":\"a\",\"content\":\"x\"}");
        assertTrue(writeReadOnly.getBoolean("result.isError"));
        given().get("/v1/stores/" + store + "/journal").then().statusCode(200)
                .body("records.size()", org.hamcrest.Matchers.equalTo(1));
    }

    @Test
    void anotherTenantsStoreOverMcpIsAStoreThatDoesNotExist() {
        String other = Keyring.issue("mcp-other", "[{\"stores\": \"other-*\", \"role\": \"admin\"}]");
        given().contentType("application/json").body("{\"content\": \"SECRET\"}")
                .put("/v1/stores/" + store + "/scopes/user/entries/a").then().statusCode(201);
        JsonPath r = call("/mcp?store=" + store + "&scope=user", other, "memory_search", "{\"query\":\"x\"}");
        assertTrue(r.getBoolean("result.isError"));
        assertEquals(dev.engram.kernel.NotFound.store(store).getMessage(), r.getString("result.content[0].text"));
        JsonPath block = rpc("/mcp?store=" + store + "&scope=user", other, "resources/read",
                "{\"uri\":\"memory://block\"}");
        assertTrue(block.getString("error.message") != null, block.prettify());
        assertFalse(block.prettify().contains("SECRET"), "no block of another tenant's store: " + block.prettify());
    }

    @Test
    void aReadOnlyKeyGetsNoWritingTools() {
        String reader = Keyring.issue("mcp-reader", "[{\"stores\": \"acme-*\", \"role\": \"read\"}]");
        JsonPath r = call("/mcp?store=" + store + "&scope=user", reader, "memory_save",
                "{\"scope\":\"user\",\"name\":\"a\",\"content\":\"x\"}");
        assertTrue(r.getBoolean("result.isError"));
        assertTrue(r.getString("result.content[0].text").contains("It may read every scope and write none."),
                r.prettify());
    }

    @Test
    void withoutATokenThereIsNoConnection() {
        given().filter(TestAuth.NO_TOKEN).contentType("application/json").accept(ACCEPT)
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}").post("/mcp")
                .then().statusCode(401).header("WWW-Authenticate", "Bearer");
        given().filter(TestAuth.NO_TOKEN).get("/mcp/sse").then().statusCode(401);
        given().filter(TestAuth.NO_TOKEN).contentType("application/json")
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}").post("/mcp/messages/anything")
                .then().statusCode(401);
    }

    /** Opens a session at {@code url} with {@code key}; returns its id. */
    static String open(String url, String key) {
        Response init = post(url, key, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\","
                + "\"version\":\"1\"}}}");
        assertEquals(200, init.statusCode(), init.asString());
        String session = init.header("Mcp-Session-Id");
        post(url, key, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return session;
    }

    static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}";

    @Test
    void aSessionAnswersOnlyTheKeyThatOpenedIt() {
        String url = "/mcp?store=" + store + "&scope=user";
        String alice = Keyring.issue("mcp-alice", "[{\"stores\": \"acme-*\", \"role\": \"write\"}]");
        String bob = Keyring.issue("mcp-bob", "[{\"stores\": \"acme-*\", \"role\": \"write\"}]");
        String session = open(url, alice);

        Response stolen = post(url, bob, session, LIST);
        assertEquals(404, stolen.statusCode(), stolen.asString());
        assertEquals("application/problem+json", stolen.contentType());
        Response ended = given().header("Authorization", "Bearer " + bob).header("Mcp-Session-Id", session)
                .delete("/mcp");
        assertEquals(404, ended.statusCode(), "another key cannot end the session either: " + ended.asString());
        Response operator = given().header("Mcp-Session-Id", session).contentType("application/json")
                .accept(ACCEPT).body(LIST).post(url);
        assertEquals(404, operator.statusCode(), "not even the operator's: " + operator.asString());

        Response own = post(url, alice, session, LIST);
        assertEquals(200, own.statusCode(), own.asString());
        assertTrue(json(own).getList("result.tools").size() > 0, own.asString());

        given().header("Authorization", "Bearer " + alice).header("Mcp-Session-Id", session).delete("/mcp").then()
                .statusCode(200);
        Response unknown = post(url, bob, session, LIST);
        assertEquals(404, unknown.statusCode());
        assertEquals(unknown.asString(), stolen.asString(), "a session of another key is told as an unknown one");
    }

    @Test
    void aLegacySseSessionAnswersOnlyTheKeyThatOpenedIt() throws Exception {
        String alice = Keyring.issue("sse-alice", "[{\"stores\": \"acme-*\", \"role\": \"write\"}]");
        String bob = Keyring.issue("sse-bob", "[{\"stores\": \"acme-*\", \"role\": \"write\"}]");
        java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
        java.net.URI base = java.net.URI.create(io.restassured.RestAssured.baseURI + ":" + io.restassured.RestAssured.port);
        var stream = client.send(java.net.http.HttpRequest.newBuilder(base.resolve("/mcp/sse?store=" + store))
                .header("Accept", "text/event-stream").header("Authorization", "Bearer " + alice).build(),
                java.net.http.HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, stream.statusCode());
        try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(stream.body(),
                java.nio.charset.StandardCharsets.UTF_8))) {
            String endpoint = null;
            for (String line = in.readLine(); line != null && endpoint == null; line = in.readLine()) {
                if (line.startsWith("data:") && line.contains("/messages/")) {
                    endpoint = line.substring(5).trim();
                }
            }
            assertTrue(endpoint != null && endpoint.startsWith("/mcp/messages/"), String.valueOf(endpoint));
            String init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2024-11-05\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
            Response stolen = given().header("Authorization", "Bearer " + bob).contentType("application/json")
                    .body(init).post(endpoint);
            assertEquals(404, stolen.statusCode(), stolen.asString());
            assertEquals("https://engram.dev/problems/mcp-session-unknown", stolen.path("type"));
            String unknownEndpoint = endpoint.replaceAll("/messages/.*", "/messages/") + "no-such-session";
            Response unknown = given().header("Authorization", "Bearer " + alice).contentType("application/json")
                    .body(init).post(unknownEndpoint);
            assertEquals(404, unknown.statusCode(), unknown.asString());
            assertEquals("https://engram.dev/problems/mcp-session-unknown", unknown.path("type"));
            Response own = given().header("Authorization", "Bearer " + alice).contentType("application/json")
                    .body(init).post(endpoint);
            assertTrue(own.statusCode() < 300, own.statusCode() + " " + own.asString());
        }
    }

    @Test
    void aBlockRefusedByTheGrantIsAnInvalidParamsErrorNotAnInternalOne() {
        String limited = Keyring.issue("mcp-block", "[{\"stores\": \"acme-*\", \"role\": \"write\", "
                + "\"scopes\": [\"user\"]}]");
        JsonPath block = rpc("/mcp?store=" + store + "&scope=project", limited, "resources/read",
                "{\"uri\":\"memory://block\"}");
        assertEquals(-32602, block.getInt("error.code"), block.prettify());
        assertTrue(block.getString("error.message").contains("may not use scope project"), block.prettify());
        assertTrue(errors.records().isEmpty(), "no ERROR line for a refusal: " + errors.records().stream()
                .map(r -> r.getLoggerName() + ": " + r.getMessage()).toList());
    }
}
