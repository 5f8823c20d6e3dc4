package dev.engram.documents.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.TestAuth;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The memory tool offered as Engram's other tools are: listed by the REST tools API (Anthropic's own tool type in
 * the anthropic format, a function elsewhere) and run by its call, and over MCP to a connection that asks for it
 * (with the official MCP Java SDK); the grant decides per path, a scope's directory being the scope's.
 */
@QuarkusTest
class MemoryToolTransportsTest {

    @TestHTTPResource("/")
    URI base;

    String store = "acme-" + UUID.randomUUID().toString().substring(0, 8);

    static String key(String grants) {
        return given().contentType("application/json").body("{\"name\": \"files\", \"grants\": " + grants + "}")
                .post("/v1/keys").then().statusCode(201).extract().path("key");
    }

    @Test
    void theToolsApiListsItInEachFormatAndRunsItsCall() {
        String tools = "/v1/stores/" + store + "/tools";
        given().get(tools + "?memory_tool=true&format=anthropic").then().statusCode(200)
                .body("tools", equalTo(List.of(Map.of("type", "memory_20250818", "name", "memory"))));
        given().get(tools + "?memory_tool=true&format=openai-chat").then().statusCode(200)
                .body("tools[0].function.name", equalTo("memory"))
                .body("tools[0].function.parameters.required", equalTo(List.of("command")));
        given().get(tools + "?memory_tool=true&scope=user").then().statusCode(200)
                .body("tools.name", equalTo(List.of("memory_save", "memory_patch", "memory_forget", "memory_search",
                        "memory")));
        given().get(tools + "?memory_tool=yes").then().statusCode(422).body("rule", equalTo("memory-tool-flag"));
        given().contentType("application/json").body("{\"name\": \"memory\", \"arguments\": {\"command\": \"create\", "
                + "\"path\": \"/memories/a.md\", \"file_text\": \"hello\"}}").post(tools + "/call").then()
                .statusCode(200).body("output", equalTo("File created successfully at: /memories/a.md"))
                .body("is_error", equalTo(false));
        given().contentType("application/json").body("{\"name\": \"memory\", \"arguments\": \"{\\\"command\\\": "
                + "\\\"view\\\", \\\"path\\\": \\\"/memories/a.md\\\"}\"}").post(tools + "/call").then()
                .statusCode(200).body("output", equalTo("Here's the content of /memories/a.md with line numbers:\n"
                        + "     1\thello"));
    }

    McpSyncClient client(String key, Map<String, String> headers) {
        var transport = HttpClientStreamableHttpTransport.builder(base.toString().replaceAll("/$", ""))
                .endpoint("/mcp?store=" + store).customizeRequest(r -> {
                    r.header("Authorization", "Bearer " + key);
                    headers.forEach(r::header);
                }).build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build();
        client.initialize();
        return client;
    }

    static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    @Test
    void anMcpConnectionAskingForItIsOfferedItAndItsGrantDecidesPerPath() {
        try (McpSyncClient plain = client(TestAuth.OPERATOR_KEY, Map.of())) {
            assertFalse(plain.listTools().tools().stream().anyMatch(t -> t.name().equals("memory")));
        }
        String userOnly = key("[{\"stores\": \"" + store + "\", \"role\": \"write\", \"scopes\": [\"user\"]}]");
        try (McpSyncClient c = client(userOnly, Map.of("Engram-Memory-Tool", "true"))) {
            assertTrue(c.listTools().tools().stream().anyMatch(t -> t.name().equals("memory")));
            McpSchema.CallToolResult mine = c.callTool(new McpSchema.CallToolRequest("memory", Map.of("command",
                    "create", "path", "/memories/user/prefs.md", "file_text", "Tea.")));
            assertFalse(mine.isError(), text(mine));
            McpSchema.CallToolResult outside = c.callTool(new McpSchema.CallToolRequest("memory", Map.of("command",
                    "create", "path", "/memories/team/plan.md", "file_text", "x")));
            assertTrue(outside.isError());
            assertEquals("Error: The path /memories/team/plan.md is read-only for this caller: its grant does not "
                    + "write there.", text(outside));
        }
        given().contentType("application/json").body("{\"command\": \"create\", \"path\": \"/memories/team/plan.md\", "
                + "\"file_text\": \"Ship.\"}").post("/v1/stores/" + store + "/memory-tool").then().statusCode(200)
                .body("is_error", equalTo(false));
        try (McpSyncClient c = client(userOnly, Map.of("Engram-Memory-Tool", "true"))) {
            McpSchema.CallToolResult listing = c.callTool(new McpSchema.CallToolRequest("memory", Map.of("command",
                    "view", "path", "/memories")));
            assertEquals("Here're the files and directories up to 2 levels deep in /memories, excluding hidden items "
                    + "and node_modules:\n4\t/memories\n4\t/memories/user\n4\t/memories/user/prefs.md", text(listing));
            McpSchema.CallToolResult hidden = c.callTool(new McpSchema.CallToolRequest("memory", Map.of("command",
                    "view", "path", "/memories/team/plan.md")));
            assertEquals("The path /memories/team/plan.md does not exist. Please provide a valid path.", text(hidden));
        }
    }
}
