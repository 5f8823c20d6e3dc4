package dev.engram.tools.host;

import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.McpSdkClients;
import dev.engram.rest.Api;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The rules around the tools that every transport keeps alike: the render's ceiling on a block's bound (REST render,
 * MCP's memory://block), and the rule of a context's id (tool_result_read over REST and over MCP).
 */
@QuarkusTest
class ToolRulesEveryTransportTest {

    /** engram.render.max-total-bytes-ceiling's default. */
    static final int CEILING = 1 << 20;

    @TestHTTPResource("/")
    URI base;

    @Test
    void aBlockBoundOverTheRendersCeilingIsRefusedOverRestAndOverMcp() {
        String s = Api.newStore();
        Api.put(s, "user", "style", "{\"content\": \"Short answers.\"}").then().statusCode(201);
        given().get("/v1/stores/" + s + "/render?scope=user&max_total_bytes=" + (CEILING + 1)).then().statusCode(422)
                .body("rule", equalTo("number-range")).body("detail", containsString(String.valueOf(CEILING)));
        try (McpSyncClient c = client("store=" + s + "&max_total_bytes=" + (CEILING + 1))) {
            McpError refused = assertThrows(McpError.class,
                    () -> c.readResource(new McpSchema.ReadResourceRequest("memory://block")));
            assertTrue(refused.getMessage().contains("at most " + CEILING), refused.getMessage());
        }
        try (McpSyncClient c = client("store=" + s + "&max_total_bytes=" + CEILING)) {
            McpSchema.ReadResourceResult block = c.readResource(new McpSchema.ReadResourceRequest("memory://block"));
            assertTrue(((McpSchema.TextResourceContents) block.contents().get(0)).text().contains("style"));
        }
    }

    @Test
    void aContextIdOutsideTheRuleIsRefusedAlikeOverRestAndOverMcp() {
        String s = Api.newStore();
        String id = "r".repeat(dev.engram.memories.MemoryRules.MAX_ID + 1);
        String detail = json().body("{\"name\": \"tool_result_read\", \"arguments\": {\"hash\": \"ab\"}, \"context\": "
                + "\"" + id + "\"}").post("/v1/stores/" + s + "/tools/call").then().statusCode(422)
                .body("rule", equalTo("id-format")).body("field", equalTo("context")).extract().path("detail");
        try (McpSyncClient c = client("store=" + s + "&context=" + id)) {
            McpSchema.CallToolResult r = c.callTool(new McpSchema.CallToolRequest("tool_result_read",
                    Map.of("hash", "ab")));
            assertTrue(r.isError());
            assertEquals(detail, ((McpSchema.TextContent) r.content().get(0)).text());
        }
        given().get("/v1/stores/" + s + "/tools?context=" + id).then().statusCode(422)
                .body("rule", equalTo("id-format"));
    }

    private McpSyncClient client(String query) {
        return McpSdkClients.connect(base, query);
    }
}
