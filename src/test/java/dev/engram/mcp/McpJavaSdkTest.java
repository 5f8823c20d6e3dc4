package dev.engram.mcp;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The official MCP Java SDK as a client of {@code /mcp}: a connection that names a bank lists and calls
 * memory_remember and memory_recall beside the four entry tools; one that names none does not see them.
 */
@QuarkusTest
class McpJavaSdkTest {

    @TestHTTPResource("/")
    URI base;

    String store = "sdk-" + UUID.randomUUID().toString().substring(0, 8);

    McpSyncClient client(String query) {
        return McpSdkClients.connect(base, query);
    }

    static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    @Test
    void aConnectionWithABankRemembersAndRecalls() {
        try (McpSyncClient c = client("store=" + store + "&bank=user:alice")) {
            List<String> names = c.listTools().tools().stream().map(McpSchema.Tool::name).sorted().toList();
            assertEquals(List.of("memory_forget", "memory_patch", "memory_recall", "memory_remember", "memory_save",
                    "memory_search"), names);
            McpSchema.Tool recall = c.listTools().tools().stream().filter(t -> t.name().equals("memory_recall"))
                    .findFirst().orElseThrow();
            assertEquals(Boolean.TRUE, recall.annotations().readOnlyHint());

            McpSchema.CallToolResult saved = c.callTool(new McpSchema.CallToolRequest("memory_remember",
                    Map.of("content", "Alice prefers tea over coffee.", "type", "preference", "importance", 0.8,
                            "tags", List.of("drinks"))));
            assertFalse(saved.isError(), text(saved));
            assertTrue(text(saved).startsWith("Remembered "), text(saved));
            assertTrue(text(saved).contains("in user:alice (preference, importance 0.80)"), text(saved));

            McpSchema.CallToolResult found = c.callTool(new McpSchema.CallToolRequest("memory_recall",
                    Map.of("query", "tea")));
            assertFalse(found.isError(), text(found));
            assertTrue(text(found).startsWith("1. [preference, importance 0.80, score "), text(found));

            McpSchema.CallToolResult bad = c.callTool(new McpSchema.CallToolRequest("memory_remember",
                    Map.of("content", "x", "importance", 7)));
            assertTrue(bad.isError());
            assertTrue(text(bad).contains("importance"), text(bad));
        }
        given().get("/v1/stores/" + store + "/memories?bank=user:alice").then().statusCode(200)
                .body("memories.content", org.hamcrest.Matchers.contains("Alice prefers tea over coffee."))
                .body("memories[0].source", org.hamcrest.Matchers.equalTo("inferred"));
        given().get("/v1/stores/" + store + "/journal").then().statusCode(200)
                .body("records.kind", org.hamcrest.Matchers.contains("memory.saved"));
    }

    @Test
    void aConnectionWithoutABankNeitherSeesNorCallsTheRecallTools() {
        try (McpSyncClient c = client("store=" + store)) {
            List<String> names = c.listTools().tools().stream().map(McpSchema.Tool::name).sorted().toList();
            assertEquals(List.of("memory_forget", "memory_patch", "memory_save", "memory_search"), names);
            io.modelcontextprotocol.spec.McpError e = org.junit.jupiter.api.Assertions.assertThrows(
                    io.modelcontextprotocol.spec.McpError.class, () -> c.callTool(new McpSchema.CallToolRequest(
                            "memory_recall", Map.of("query", "tea"))));
            assertTrue(e.getMessage().contains("memory_recall"), e.getMessage());
        }
    }

    @Test
    void aConnectionWithAMalformedBankIsToldWhy() {
        try (McpSyncClient c = client("store=" + store + "&bank=User:x")) {
            McpSchema.CallToolResult r = c.callTool(new McpSchema.CallToolRequest("memory_recall",
                    Map.of("query", "tea")));
            assertTrue(r.isError());
            assertTrue(text(r).contains("is not a bank id"), text(r));
        }
    }
}
