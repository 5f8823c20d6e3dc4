package dev.engram.mcp;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.TestAuth;
import dev.engram.contexts.cache.ToolResultCache;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * tool_result_read over MCP with the official MCP Java SDK as the client: a connection that names a context (by query
 * parameter or header) is offered it and reads the context's cache, with the reference's text for an unknown hash; a
 * connection that names none is neither offered it nor may call it; the grant a context's GET takes is the one it
 * takes.
 */
@QuarkusTest
class McpContextToolsTest {

    static final String OUTPUT = "alpha\nbeta\ngamma";

    @TestHTTPResource("/")
    URI base;

    String store = "acme-" + UUID.randomUUID().toString().substring(0, 8);
    String hash = ToolResultCache.contentHash("read_file", OUTPUT).substring(0, 4);

    @BeforeEach
    void context() {
        given().contentType("application/json").body("{}").put("/v1/stores/" + store + "/contexts/run-1").then()
                .statusCode(201);
        given().contentType("application/json").body("{\"steps\": [{\"thought\": \"Read.\", \"action\": {\"id\": "
                + "\"c1\", \"name\": \"read_file\"}, \"observation\": \"alpha\\nbeta\\ngamma\", \"cache\": true}]}")
                .post("/v1/stores/" + store + "/contexts/run-1/steps").then().statusCode(200);
    }

    McpSyncClient client(String query, String key, Map<String, String> headers) {
        var transport = HttpClientStreamableHttpTransport.builder(base.toString().replaceAll("/$", ""))
                .endpoint("/mcp?" + query)
                .customizeRequest(r -> {
                    r.header("Authorization", "Bearer " + key);
                    headers.forEach(r::header);
                })
                .build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build();
        client.initialize();
        return client;
    }

    static String key(String name, String grants) {
        return given().contentType("application/json").body("{\"name\": \"" + name + "\", \"grants\": " + grants
                + "}").post("/v1/keys").then().statusCode(201).extract().path("key");
    }

    static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    static List<String> names(McpSyncClient c) {
        return c.listTools().tools().stream().map(McpSchema.Tool::name).sorted().toList();
    }

    @Test
    void aConnectionNamingAContextReadsItsCachedResults() {
        try (McpSyncClient c = client("store=" + store + "&context=run-1", TestAuth.OPERATOR_KEY, Map.of())) {
            assertEquals(List.of("memory_forget", "memory_patch", "memory_save", "memory_search", "tool_result_read"),
                    names(c));
            McpSchema.Tool tool = c.listTools().tools().stream().filter(t -> t.name().equals("tool_result_read"))
                    .findFirst().orElseThrow();
            assertEquals(List.of("hash"), tool.inputSchema().required());
            assertEquals(List.of("hash", "start_line", "num_lines", "line"),
                    List.copyOf(tool.inputSchema().properties().keySet()));
            assertTrue(tool.description().startsWith("Read a previously cached tool result in fragments."));
            assertEquals(Boolean.TRUE, tool.annotations().readOnlyHint());

            McpSchema.CallToolResult read = c.callTool(new McpSchema.CallToolRequest("tool_result_read",
                    Map.of("hash", hash, "start_line", 2, "num_lines", 1)));
            assertFalse(read.isError(), text(read));
            assertEquals("[Lines 2-2 of 3 from cached read_file result | hash: " + hash + "]\nbeta\n\n"
                    + "[Use tool_result_read(hash=\"" + hash + "\", start_line=3, num_lines=1) to continue reading]",
                    text(read));

            McpSchema.CallToolResult unknown = c.callTool(new McpSchema.CallToolRequest("tool_result_read",
                    Map.of("hash", "ffff")));
            assertTrue(unknown.isError());
            assertEquals("No cached result found for hash: ffff. The cache entry may have expired or the hash is "
                    + "incorrect.", text(unknown));

            McpSchema.CallToolResult negative = c.callTool(new McpSchema.CallToolRequest("tool_result_read",
                    Map.of("hash", hash, "num_lines", -2)));
            assertTrue(negative.isError());
            assertTrue(text(negative).contains("num_lines must be a whole number from 1"), text(negative));
        }
        given().get("/v1/stores/" + store + "/journal").then().statusCode(200)
                .body("records.kind", org.hamcrest.Matchers.contains("context.configured", "context.steps_appended"));
    }

    @Test
    void theContextMayBeNamedByHeaderAndAMissingOneIsAToolError() {
        try (McpSyncClient c = client("store=" + store, TestAuth.OPERATOR_KEY, Map.of("Engram-Context", "run-2"))) {
            assertTrue(names(c).contains("tool_result_read"));
            McpSchema.CallToolResult r = c.callTool(new McpSchema.CallToolRequest("tool_result_read",
                    Map.of("hash", hash)));
            assertTrue(r.isError());
            assertTrue(text(r).startsWith("No context run-2 in this store."), text(r));
        }
    }

    @Test
    void aConnectionNamingNoContextIsNotOfferedTheTool() {
        try (McpSyncClient c = client("store=" + store, TestAuth.OPERATOR_KEY, Map.of())) {
            assertFalse(names(c).contains("tool_result_read"));
            McpError e = assertThrows(McpError.class, () -> c.callTool(new McpSchema.CallToolRequest(
                    "tool_result_read", Map.of("hash", hash))));
            assertTrue(e.getMessage().contains("tool_result_read"), e.getMessage());
        }
    }

    @Test
    void readingTakesTheGrantAContextsGetTakes() {
        String reader = key("mcp-ctx-reader", "[{\"stores\": \"acme-*\", \"role\": \"read\"}]");
        try (McpSyncClient c = client("store=" + store + "&context=run-1", reader, Map.of())) {
            McpSchema.CallToolResult r = c.callTool(new McpSchema.CallToolRequest("tool_result_read",
                    Map.of("hash", hash)));
            assertFalse(r.isError(), text(r));
        }
        String limited = key("mcp-ctx-limited", "[{\"stores\": \"acme-*\", \"role\": \"write\", "
                + "\"scopes\": [\"user\"]}]");
        try (McpSyncClient c = client("store=" + store + "&context=run-1", limited, Map.of())) {
            McpSchema.CallToolResult r = c.callTool(new McpSchema.CallToolRequest("tool_result_read",
                    Map.of("hash", hash)));
            assertTrue(r.isError());
            assertFalse(text(r).contains("alpha"), text(r));
        }
        String other = key("mcp-ctx-other", "[{\"stores\": \"other-*\", \"role\": \"admin\"}]");
        try (McpSyncClient c = client("store=" + store + "&context=run-1", other, Map.of())) {
            McpSchema.CallToolResult r = c.callTool(new McpSchema.CallToolRequest("tool_result_read",
                    Map.of("hash", hash)));
            assertTrue(r.isError());
            assertEquals(dev.engram.kernel.NotFound.store(store).getMessage(), text(r));
        }
    }
}
