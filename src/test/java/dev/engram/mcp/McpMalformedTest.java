package dev.engram.mcp;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed JSON-RPC on {@code /mcp} gets a JSON-RPC error, never a 500: HTTP 400 with no id when the message is not
 * one JSON-RPC request (the Streamable HTTP transport's answer to input it cannot accept), and HTTP 200 with the
 * request's id when a well-formed request has bad params. Nothing is written to the store.
 */
@QuarkusTest
class McpMalformedTest {

    static final String ACCEPT = McpTest.ACCEPT;

    String store = "mcp-" + UUID.randomUUID().toString().substring(0, 8);
    String url = "/mcp?store=" + store;
    String mcpSession;

    /** One malformed message, the HTTP status, the JSON-RPC error code, and the id the error carries (or null). */
    record Bad(String label, byte[] body, int status, int code, Integer id) {

        @Override
        public String toString() {
            return label;
        }
    }

    static Bad bad(String label, String body, int status, int code, Integer id) {
        return new Bad(label, body.getBytes(StandardCharsets.UTF_8), status, code, id);
    }

    static String call(int id, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":" + params + "}";
    }

    static Stream<Bad> table() {
        byte[] overlong = {'{', '"', 'j', 's', 'o', 'n', 'r', 'p', 'c', '"', ':', '"', '2', '.', '0', '"', ',', '"',
            'i', 'd', '"', ':', '1', ',', '"', 'm', 'e', 't', 'h', 'o', 'd', '"', ':', '"', 'p', 'i', 'n', 'g',
            (byte) 0xc0, (byte) 0xaf, '"', '}'};
        return Stream.of(
                bad("not JSON", "{\"jsonrpc\":", 400, -32700, null),
                new Bad("overlong UTF-8", overlong, 400, -32700, null),
                new Bad("UTF-16", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"
                        .getBytes(StandardCharsets.UTF_16LE), 400, -32700, null),
                bad("an empty array", "[]", 400, -32600, null),
                bad("a batch", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", 400, -32600, null),
                bad("null", "null", 400, -32600, null),
                bad("a string", "\"ping\"", 400, -32600, null),
                bad("no jsonrpc member", "{\"id\":1,\"method\":\"ping\"}", 400, -32600, null),
                bad("jsonrpc 1.0", "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", 400, -32600, null),
                bad("an object id", "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}", 400, -32600, null),
                bad("a null id", "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", 400, -32600, null),
                bad("a method that is not a string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}", 400, -32600, null),
                bad("params null", "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":null}", 200,
                        -32602, 7),
                bad("params an array", "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\",\"params\":[]}", 200,
                        -32602, 8),
                bad("tool call params null", "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":null}",
                        200, -32602, 9),
                bad("tool arguments null", call(10, "{\"name\":\"memory_save\",\"arguments\":null}"), 200, -32602, 10),
                bad("tool arguments a string", call(11, "{\"name\":\"memory_save\",\"arguments\":\"{\\\"name\\\":"
                        + "\\\"a\\\",\\\"content\\\":\\\"x\\\"}\"}"), 200, -32602, 11),
                bad("tool arguments a list", call(12, "{\"name\":\"memory_save\",\"arguments\":[]}"), 200, -32602, 12),
                bad("tool name missing", call(13, "{\"arguments\":{}}"), 200, -32602, 13),
                bad("tool name a number", call(14, "{\"name\":5,\"arguments\":{}}"), 200, -32602, 14),
                bad("resource uri missing", "{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"resources/read\","
                        + "\"params\":{}}", 200, -32602, 15),
                bad("a notification with params null", "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\","
                        + "\"params\":null}", 400, -32602, null));
    }

    @BeforeEach
    void initialize() {
        Response init = post("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}");
        assertEquals(200, init.statusCode(), init.asString());
        mcpSession = init.header("Mcp-Session-Id");
        assertNotNull(mcpSession);
        assertEquals(202, post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode());
    }

    Response post(String body) {
        return post(body.getBytes(StandardCharsets.UTF_8));
    }

    Response post(byte[] body) {
        var request = given().contentType("application/json").accept(ACCEPT).body(body);
        if (mcpSession != null) {
            request.header("Mcp-Session-Id", mcpSession);
        }
        return request.post(url);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void aMalformedMessageGetsAJsonRpcErrorAndWritesNothing(Bad bad) {
        Response r = post(bad.body());
        assertEquals(bad.status(), r.statusCode(), r.asString());
        JsonPath json = new JsonPath(r.asString());
        assertEquals("2.0", json.getString("jsonrpc"), r.asString());
        assertEquals(bad.code(), json.getInt("error.code"), r.asString());
        assertFalse(json.getString("error.message").isBlank(), r.asString());
        if (bad.id() == null) {
            assertNull(json.get("id"), r.asString());
        } else {
            assertEquals(bad.id(), json.getInt("id"), r.asString());
        }
        given().get("/v1/stores/" + store).then().statusCode(404);
        JsonPath ping = new JsonPath(post("{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\"}").asString());
        assertEquals(99, ping.getInt("id"), "the session still works");
    }

    @Test
    void aResourceReadOnAConnectionWithoutAStoreSaysHowToNameOne() {
        url = "/mcp";
        mcpSession = null;
        initialize();
        Response r = post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/read\",\"params\":{\"uri\":"
                + "\"memory://block\"}}");
        assertEquals(200, r.statusCode(), r.asString());
        String body = r.asString();
        if (body.startsWith("event:") || body.startsWith("data:") || body.startsWith("id:")) {
            body = body.lines().filter(l -> l.startsWith("data:")).reduce((a, b) -> b).orElseThrow().substring(5);
        }
        JsonPath json = new JsonPath(body);
        assertEquals(3, json.getInt("id"));
        assertEquals(-32602, json.getInt("error.code"), body);
        assertTrue(json.getString("error.message").contains("?store=<id>"), body);
    }
}
