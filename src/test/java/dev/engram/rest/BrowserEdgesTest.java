package dev.engram.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a browser on another site can do to a local Engram: nothing. A write must say application/json (so a
 * cross-origin "simple" POST is refused, not accepted), /mcp refuses an Origin it was not told to trust, and CORS
 * grants no origin unless configured.
 */
@QuarkusTest
class BrowserEdgesTest {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URI base;

    /** Sends a request with exactly the given Content-Type (none when null), which RestAssured cannot do. */
    HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + dev.engram.TestAuth.OPERATOR_KEY)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            r.header("Content-Type", contentType);
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    static Stream<Arguments> notJson() {
        String entry = "{\"content\":\"from another site\"}";
        return Stream.of(
                Arguments.of("PUT", "/scopes/user/entries/csrf", null, entry),
                Arguments.of("PUT", "/scopes/user/entries/csrf", "text/plain", entry),
                Arguments.of("PUT", "/scopes/user/entries/csrf", "application/x-www-form-urlencoded", "content=x"),
                Arguments.of("PUT", "/scopes/user/entries/csrf", "multipart/form-data; boundary=b",
                        "--b\r\nContent-Disposition: form-data; name=content\r\n\r\nx\r\n--b--\r\n"),
                Arguments.of("PUT", "/scopes/user/entries/csrf", "application/jsonx", entry),
                Arguments.of("PUT", "/scopes/user/entries/csrf", ";;", entry),
                Arguments.of("PUT", "/scopes/user/entries/csrf", ";", entry),
                Arguments.of("PATCH", "/scopes/user/entries/csrf", "text/plain",
                        "{\"old_text\":\"a\",\"new_text\":\"b\"}"),
                Arguments.of("PUT", "", "text/plain", "{\"max_entry_bytes\":64}"),
                Arguments.of("POST", "/tools/call", "text/plain", "{\"name\":\"memory_save\",\"scopes\":[\"user\"],"
                        + "\"arguments\":{\"name\":\"csrf\",\"content\":\"x\"}}"),
                Arguments.of("POST", "/sessions/csrf/render?scope=user", null, null),
                Arguments.of("POST", "/sessions/csrf/render?scope=user", "application/x-www-form-urlencoded", ""));
    }

    @ParameterizedTest
    @MethodSource("notJson")
    void aWriteThatIsNotJsonIs415AndWritesNothing(String method, String path, String type, String body)
            throws Exception {
        String s = Api.newStore();
        HttpResponse<String> r = send(method, "/v1/stores/" + s + path, type, body);
        assertEquals(415, r.statusCode(), r.body());
        assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElse(""));
        JsonNode problem = JSON.readTree(r.body());
        assertEquals("https://engram.dev/problems/unsupported-media-type", problem.get("type").asText());
        assertEquals(415, problem.get("status").asInt());
        given().get("/v1/stores/" + s).then().statusCode(404);
        given().get("/v1/stores/" + s + "/sessions/csrf/manifests").then().statusCode(200)
                .body("records.size()", equalTo(0));
    }

    @Test
    void jsonWithACharsetIsAWrite() throws Exception {
        String s = Api.newStore();
        HttpResponse<String> r = send("PUT", "/v1/stores/" + s + "/scopes/user/entries/a",
                "Application/JSON; charset=utf-8", "{\"content\":\"kept\"}");
        assertEquals(201, r.statusCode(), r.body());
        assertEquals(200, send("POST", "/v1/stores/" + s + "/sessions/one/render?scope=user",
                "application/json", null).statusCode(), "a write without a body still says application/json");
    }

    @Test
    void mcpTakesOnlyJson() throws Exception {
        HttpResponse<String> r = send("POST", "/mcp?store=edges&scope=user", "text/plain",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
        assertEquals(415, r.statusCode(), r.body());
        assertEquals("https://engram.dev/problems/unsupported-media-type",
                JSON.readTree(r.body()).get("type").asText());
    }

    @Test
    void mcpRefusesAnOriginItWasNotGivenAndServesClientsThatSendNone() {
        String init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
        for (String path : new String[] {"/mcp?store=edges", "/mcp/sse", "/mcp/messages/abc"}) {
            given().header("Origin", "https://evil.example").contentType("application/json")
                    .accept("application/json, text/event-stream").body(init).post(path)
                    .then().statusCode(403).contentType("application/problem+json")
                    .body("type", equalTo("https://engram.dev/problems/origin-refused"))
                    .body("origin", equalTo("https://evil.example"));
        }
        given().header("Origin", "null").get("/mcp/sse").then().statusCode(403);
        given().contentType("application/json").accept("application/json, text/event-stream").body(init)
                .post("/mcp?store=edges").then().statusCode(200);
    }

    @Test
    void corsIsOffSoAForeignPreflightIsGrantedNothing() {
        String allow = given().header("Origin", "https://evil.example")
                .header("Access-Control-Request-Method", "PUT")
                .header("Access-Control-Request-Headers", "content-type")
                .options("/v1/stores/demo/scopes/user/entries/style")
                .then().extract().header("Access-Control-Allow-Origin");
        assertEquals(null, allow, "no Access-Control-Allow-Origin");
        String onGet = given().header("Origin", "https://evil.example").get("/v1/stores/none-here")
                .then().extract().header("Access-Control-Allow-Origin");
        assertEquals(null, onGet);
    }

    @Test
    void theEmbeddedDatabaseMeansListeningOnLoopbackOnly() {
        String host = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue("quarkus.http.host", String.class);
        assertEquals("127.0.0.1", host);
        assertTrue(base.getHost().equals("localhost") || base.getHost().equals("127.0.0.1"), base.toString());
        assertFalse(host.equals("0.0.0.0"));
    }
}
