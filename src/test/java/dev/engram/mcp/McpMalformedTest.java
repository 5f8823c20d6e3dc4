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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    static String initialize(int id, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"initialize\",\"params\":" + params + "}";
    }

    static Stream<Bad> initializations() {
        String caps = "\"capabilities\":{}";
        String info = "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}";
        String version = "\"protocolVersion\":\"2025-06-18\"";
        return Stream.of(
                bad("no clientInfo", initialize(20, "{" + version + "," + caps + "}"), 200, -32602, 20),
                bad("capabilities -1", initialize(21, "{" + version + ",\"capabilities\":-1," + info + "}"), 200,
                        -32602, 21),
                bad("params null", initialize(22, "null"), 200, -32602, 22),
                bad("params an array", initialize(23, "[]"), 200, -32602, 23),
                bad("params a string", initialize(24, "\"x\""), 200, -32602, 24),
                bad("no params", "{\"jsonrpc\":\"2.0\",\"id\":25,\"method\":\"initialize\"}", 200, -32602, 25),
                bad("protocolVersion a number", initialize(26, "{\"protocolVersion\":5," + caps + "," + info + "}"),
                        200, -32602, 26),
                bad("clientInfo a string", initialize(27, "{" + version + "," + caps + ",\"clientInfo\":\"t\"}"),
                        200, -32602, 27),
                bad("clientInfo without a name", initialize(28, "{" + version + "," + caps
                        + ",\"clientInfo\":{\"version\":\"1\"}}"), 200, -32602, 28),
                bad("icons a string", initialize(29, "{" + version + "," + caps
                        + ",\"clientInfo\":{\"name\":\"t\",\"version\":\"1\",\"icons\":\"x\"}}"), 200, -32602, 29),
                bad("an icon a number", initialize(30, "{" + version + "," + caps
                        + ",\"clientInfo\":{\"name\":\"t\",\"version\":\"1\",\"icons\":[1]}}"), 200, -32602, 30),
                bad("a capability a number", initialize(31, "{" + version + ",\"capabilities\":{\"roots\":1},"
                        + info + "}"), 200, -32602, 31),
                bad("NUL in the client's name", initialize(32, "{" + version + "," + caps
                        + ",\"clientInfo\":{\"name\":\"t\\u0000\",\"version\":\"1\"}}"), 200, -32602, 32));
    }

    /** Initialize with bad params, as the first message of a connection: Invalid params, never a 500. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("initializations")
    void anInitializeWithBadParamsIsInvalidParams(Bad bad) {
        mcpSession = null;
        Response r = post(bad.body());
        assertEquals(bad.status(), r.statusCode(), r.asString());
        JsonPath json = new JsonPath(r.asString());
        assertEquals(bad.code(), json.getInt("error.code"), r.asString());
        assertEquals(bad.id(), json.getInt("id"), r.asString());
        assertTrue(json.getString("error.message").startsWith("Invalid params: "), r.asString());
        assertNull(r.header("Mcp-Session-Id"), "no session is opened");
    }

    /** A value of every JSON type but {@code kind}'s. */
    static List<String> wrongValues(McpParams.Kind kind) {
        Map<McpParams.Kind, List<String>> holds = Map.of(McpParams.Kind.STRING, List.of("\"s\""),
                McpParams.Kind.NUMBER, List.of("5", "-1.5"), McpParams.Kind.ID, List.of("\"s\"", "5"),
                McpParams.Kind.OBJECT, List.of("{}"), McpParams.Kind.ARRAY, List.of("[]"));
        return Stream.of("null", "true", "5", "\"s\"", "[]", "{}", "[null]")
                .filter(v -> !holds.get(kind).contains(v)).toList();
    }

    /**
     * Generated from the table of every method's params: params of every wrong type, each required member left
     * out, and each member (top level and nested) of every wrong type; each must be Invalid params.
     */
    static Stream<Bad> generated() {
        List<Bad> all = new ArrayList<>();
        int[] id = {1000};
        McpParams.METHODS.forEach((method, members) -> {
            boolean notification = method.startsWith("notifications/");
            for (String params : List.of("null", "[]", "\"x\"", "5", "true")) {
                all.add(shape(method, "params " + params, params, notification, ++id[0]));
            }
            Map<String, String> valid = new LinkedHashMap<>();
            members.forEach(m -> valid.put(m.name(), validValue(m)));
            for (McpParams.Member m : members) {
                if (m.required()) {
                    Map<String, String> without = new LinkedHashMap<>(valid);
                    without.remove(m.name());
                    all.add(shape(method, "without " + m.name(), object(without), notification, ++id[0]));
                }
                for (String wrong : wrongValues(m.kind())) {
                    Map<String, String> with = new LinkedHashMap<>(valid);
                    with.put(m.name(), wrong);
                    all.add(shape(method, m.name() + " " + wrong, object(with), notification, ++id[0]));
                }
                for (McpParams.Member inner : m.members()) {
                    for (String wrong : wrongValues(inner.kind())) {
                        Map<String, String> with = new LinkedHashMap<>(valid);
                        with.put(m.name(), "{\"" + inner.name() + "\":" + wrong + "}");
                        all.add(shape(method, m.name() + "." + inner.name() + " " + wrong, object(with), notification,
                                ++id[0]));
                    }
                }
            }
            Map<String, String> meta = new LinkedHashMap<>(valid);
            meta.put("_meta", "5");
            all.add(shape(method, "_meta 5", object(meta), notification, ++id[0]));
        });
        return all.stream();
    }

    static String validValue(McpParams.Member m) {
        if (!m.oneOf().isEmpty()) {
            return "\"" + m.oneOf().stream().sorted().findFirst().orElseThrow() + "\"";
        }
        if (!m.members().isEmpty()) {
            Map<String, String> inner = new LinkedHashMap<>();
            m.members().stream().filter(McpParams.Member::required).forEach(i -> inner.put(i.name(), validValue(i)));
            return object(inner);
        }
        return switch (m.kind()) {
            case STRING -> "\"memory://block\"";
            case NUMBER, ID -> "1";
            case OBJECT -> "{}";
            case ARRAY -> "[]";
        };
    }

    static String object(Map<String, String> members) {
        StringBuilder b = new StringBuilder("{");
        members.forEach((k, v) -> b.append(b.length() > 1 ? "," : "").append('"').append(k).append("\":").append(v));
        return b.append('}').toString();
    }

    static Bad shape(String method, String label, String params, boolean notification, int id) {
        String body = "{\"jsonrpc\":\"2.0\"," + (notification ? "" : "\"id\":" + id + ",") + "\"method\":\"" + method
                + "\",\"params\":" + params + "}";
        return bad(method + ": " + label, body, notification ? 400 : 200, -32602, notification ? null : id);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("generated")
    void everyMethodRefusesParamsOfTheWrongShape(Bad bad) {
        if (bad.label().startsWith("initialize")) {
            mcpSession = null;
        }
        Response r = post(bad.body());
        assertTrue(r.statusCode() < 500, r.statusCode() + " " + r.asString());
        assertEquals(bad.status(), r.statusCode(), r.asString());
        JsonPath json = new JsonPath(r.asString());
        assertEquals(bad.code(), json.getInt("error.code"), r.asString());
        assertTrue(json.getString("error.message").startsWith("Invalid params: "), r.asString());
    }

    @Test
    void everyMethodTakesItsParamsWhenTheyAreWellFormed() {
        McpParams.METHODS.forEach((method, members) -> {
            Map<String, String> valid = new LinkedHashMap<>();
            members.forEach(m -> valid.put(m.name(), validValue(m)));
            boolean notification = method.startsWith("notifications/");
            Response r = post("{\"jsonrpc\":\"2.0\"," + (notification ? "" : "\"id\":7,") + "\"method\":\""
                    + method + "\",\"params\":" + object(valid) + "}");
            assertTrue(r.statusCode() < 500, method + ": " + r.statusCode() + " " + r.asString());
            assertFalse(r.asString().contains("Invalid params: "), method + ": " + r.asString());
        });
    }

    /** Each argument of each tool, set to text with NUL or an unpaired surrogate: refused, never a 500. */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"\\u0000", "a\\ud800", "\\udc00b"})
    void badTextInAnyToolArgumentIsRefused(String text) {
        url = "/mcp?store=" + store + "&bank=user:alice&context=run-1";
        mcpSession = null;
        initialize();
        JsonPath tools = json(post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}"));
        List<Map<String, Object>> listed = tools.getList("result.tools");
        assertTrue(listed.size() >= 7, "every tool is listed: " + tools.prettify());
        int calls = 0;
        for (Map<String, Object> tool : listed) {
            @SuppressWarnings("unchecked")
            Map<String, Object> properties = (Map<String, Object>) ((Map<String, Object>) tool.get("inputSchema"))
                    .get("properties");
            for (String argument : properties.keySet()) {
                for (String args : List.of("{\"" + argument + "\":\"" + text + "\"}",
                        "{\"" + argument + "\":[\"" + text + "\"]}", "{\"" + argument + "\":{\"" + text + "\":1}}")) {
                    Response r = post(call(++calls, "{\"name\":\"" + tool.get("name") + "\",\"arguments\":" + args
                            + "}"));
                    assertTrue(r.statusCode() == 200 || r.statusCode() == 400, tool.get("name") + " " + args + ": "
                            + r.statusCode() + " " + r.asString());
                    JsonPath answer = json(r);
                    // a surrogate in a member's name is already past what the JSON parser reads: a Parse error
                    boolean refused = answer.get("error") != null
                            ? List.of(-32602, -32700).contains(answer.getInt("error.code"))
                            : answer.getBoolean("result.isError");
                    assertTrue(refused, tool.get("name") + " " + args + ": " + r.asString());
                }
            }
        }
        assertTrue(calls > 20, "every argument was tried: " + calls);
        given().get("/v1/stores/" + store).then().statusCode(404);
    }

    static JsonPath json(Response r) {
        String body = r.asString();
        if (!body.startsWith("{")) {
            body = body.lines().filter(l -> l.startsWith("data:")).reduce((a, b) -> b).orElseThrow().substring(5);
        }
        return new JsonPath(body);
    }

    @Test
    void transportRefusalsAreProblems() {
        Response get = given().get("/mcp");
        assertEquals(405, get.statusCode(), get.asString());
        assertEquals("application/problem+json", get.contentType());
        assertEquals("GET, POST, DELETE", get.header("Allow"));
        assertTrue(get.path("detail").toString().contains("Mcp-Session-Id"), get.asString());

        Response put = given().contentType("application/json").body("{}").put("/mcp");
        assertEquals(405, put.statusCode(), put.asString());
        assertEquals("application/problem+json", put.contentType());
        assertEquals("GET, POST, DELETE", put.header("Allow"));
        assertEquals("https://engram.dev/problems/method-not-allowed", put.path("type"));

        for (String accept : new String[] {null, "application/json", "text/event-stream", "*/*"}) {
            var request = given().contentType("application/json").header("Mcp-Session-Id", mcpSession)
                    .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
            if (accept != null) {
                request.accept(accept);
            }
            Response r = request.post(url);
            assertEquals(400, r.statusCode(), accept + ": " + r.asString());
            assertEquals("application/problem+json", r.contentType(), accept + ": " + r.asString());
            assertTrue(r.path("detail").toString().contains("Accept: application/json, text/event-stream"),
                    r.asString());
        }

        Response stream = given().header("Mcp-Session-Id", "no-such-session").accept("text/event-stream")
                .get("/mcp");
        assertEquals(404, stream.statusCode(), stream.asString());
        assertEquals("application/problem+json", stream.contentType());
    }
}
