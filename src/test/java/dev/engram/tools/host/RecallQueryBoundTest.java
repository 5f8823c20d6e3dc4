package dev.engram.tools.host;

import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.McpSdkClients;
import dev.engram.entries.Match;
import dev.engram.rest.Api;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bound of a recall query is one rule ({@link dev.engram.memories.RecallQuery}) that every way of recalling keeps:
 * REST search, memory_recall over the REST tools API, memory_recall over MCP. Each refuses an over-bound query with
 * the same rule's text and numbers (REST as a 422 problem, a tool as its error text), and none of them writes or
 * creates anything.
 */
@QuarkusTest
class RecallQueryBoundTest {

    @TestHTTPResource("/")
    URI base;

    /** How each transport refused a query: the problem's status, rule and detail; the tools' error texts. */
    record Refusals(int status, String rule, String detail, String restTool, String mcpTool) {
    }

    @Test
    void aQueryOverTheLengthBoundIsRefusedAlikeOnEveryTransportAndWritesNothing() {
        String s = Api.newStore();
        remember(s);
        String query = "x".repeat(Match.MAX_QUERY_CHARS + 1);
        long journal = journalLength(s);
        Refusals r = refuse(s, query);
        assertEquals(422, r.status());
        assertEquals("query-length", r.rule());
        assertTrue(r.detail().contains("1001") && r.detail().contains(String.valueOf(Match.MAX_QUERY_CHARS)),
                r.detail());
        assertEquals(r.detail(), r.restTool(), "the REST tool call says what REST search says");
        assertEquals(r.detail(), r.mcpTool(), "MCP says what REST search says");
        assertEquals(journal, journalLength(s), "nothing written");
        given().get("/v1/stores/" + s + "/recall").then().statusCode(200)
                .body("memories", org.hamcrest.Matchers.equalTo(1));
    }

    @Test
    void aQueryOverTheSeedRankingsWordBoundIsRefusedAlikeOnEveryTransport() {
        String s = Api.newStore();
        remember(s);
        json().body("{\"mission\": \"m\", \"ranking\": \"seed\"}").put("/v1/stores/" + s + "/banks/user:alice/config")
                .then().statusCode(200);
        String query = "word ".repeat(Match.MAX_QUERY_WORDS + 1).trim();
        long journal = journalLength(s);
        Refusals r = refuse(s, query);
        assertEquals(422, r.status());
        assertEquals("query-words", r.rule());
        assertTrue(r.detail().contains(String.valueOf(Match.MAX_QUERY_WORDS + 1))
                && r.detail().contains(String.valueOf(Match.MAX_QUERY_WORDS)), r.detail());
        assertEquals(r.detail(), r.restTool());
        assertEquals(r.detail(), r.mcpTool());
        assertEquals(journal, journalLength(s), "nothing written");
    }

    @Test
    void aStoreNeverWrittenIsNotCreatedOrClaimedByARefusedRecall() {
        String s = Api.newStore();
        Refusals r = refuse(s, "y".repeat(Match.MAX_QUERY_CHARS + 1));
        assertEquals("query-length", r.rule());
        assertEquals(r.detail(), r.restTool());
        assertEquals(r.detail(), r.mcpTool());
        given().get("/v1/stores/" + s).then().statusCode(404);
    }

    /** The same over-bound query sent by REST search, by the REST tools API and over MCP. */
    private Refusals refuse(String store, String query) {
        JsonPath problem = json().body("{\"query\": \"" + query + "\", \"banks\": [\"user:alice\"]}")
                .post("/v1/stores/" + store + "/memories/search").then().extract().jsonPath();
        int status = json().body("{\"query\": \"" + query + "\", \"banks\": [\"user:alice\"]}")
                .post("/v1/stores/" + store + "/memories/search").then().extract().statusCode();
        JsonPath tool = json().body("{\"name\": \"memory_recall\", \"arguments\": {\"query\": \"" + query + "\"}, "
                + "\"bank\": \"user:alice\"}").post("/v1/stores/" + store + "/tools/call").then().statusCode(200)
                .extract().jsonPath();
        assertTrue(tool.getBoolean("is_error"), tool.prettify());
        String mcp;
        try (McpSyncClient c = client("store=" + store + "&bank=user:alice")) {
            McpSchema.CallToolResult result = c.callTool(new McpSchema.CallToolRequest("memory_recall",
                    Map.of("query", query)));
            assertTrue(result.isError());
            mcp = ((McpSchema.TextContent) result.content().get(0)).text();
        }
        assertFalse(problem.getString("type").isEmpty());
        return new Refusals(status, problem.getString("rule"), problem.getString("detail"), tool.getString("output"),
                mcp);
    }

    private static void remember(String store) {
        json().body("{\"id\": \"a\", \"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"content\": \"Melanie took a "
                + "pottery class.\"}").post("/v1/stores/" + store + "/memories").then().statusCode(201);
    }

    private static long journalLength(String store) {
        return json().get("/v1/stores/" + store + "/journal").then().statusCode(200).extract().jsonPath()
                .getList("records").size();
    }

    private McpSyncClient client(String query) {
        return McpSdkClients.connect(base, query);
    }
}
