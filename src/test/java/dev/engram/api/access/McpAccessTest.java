package dev.engram.api.access;

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

/** MCP connections: a key's grant bounds the store and scopes a connection may name; no token, no connection. */
@QuarkusTest
class McpAccessTest {

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
        assertEquals(dev.engram.memory.NotFound.store(store).getMessage(), r.getString("result.content[0].text"));
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
}
