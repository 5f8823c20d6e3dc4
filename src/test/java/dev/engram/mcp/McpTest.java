package dev.engram.mcp;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A real MCP exchange over Streamable HTTP: initialize, initialized, tools/list, tools/call of each tool. */
@QuarkusTest
class McpTest {

    static final String ACCEPT = "application/json, text/event-stream";

    String store = "mcp-" + UUID.randomUUID().toString().substring(0, 8);
    String mcpSession;
    int id;

    Response post(String url, String body) {
        var request = given().contentType("application/json").accept(ACCEPT).body(body);
        if (mcpSession != null) {
            request.header("Mcp-Session-Id", mcpSession);
        }
        return request.post(url);
    }

    JsonPath rpc(String url, String method, String params) {
        Response r = post(url, "{\"jsonrpc\":\"2.0\",\"id\":" + (++id) + ",\"method\":\"" + method + "\",\"params\":"
                + params + "}");
        assertEquals(200, r.statusCode(), r.asString());
        String body = r.asString();
        if (body.startsWith("event:") || body.startsWith("data:") || body.startsWith("id:")) {
            body = body.lines().filter(l -> l.startsWith("data:")).reduce((a, b) -> b).orElseThrow().substring(5);
        }
        JsonPath json = new JsonPath(body);
        assertEquals(id, json.getInt("id"));
        return json;
    }

    JsonPath tool(String url, String name, String arguments) {
        return rpc(url, "tools/call", "{\"name\":\"" + name + "\",\"arguments\":" + arguments + "}");
    }

    @Test
    void anAgentConnectsListsTheToolsAndCallsEachOne() {
        String url = "/mcp?store=" + store + "&scope=user&scope=project&read_scope=rules&session=mcp-agent";
        Response init = post(url, "{\"jsonrpc\":\"2.0\",\"id\":" + (++id) + ",\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\","
                + "\"version\":\"1\"}}}");
        assertEquals(200, init.statusCode(), init.asString());
        mcpSession = init.header("Mcp-Session-Id");
        assertNotNull(mcpSession, "the server names the MCP session");
        assertTrue(init.asString().contains("\"tools\""), init.asString());

        Response initialized = post(url, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        assertEquals(202, initialized.statusCode());

        JsonPath list = rpc(url, "tools/list", "{}");
        assertEquals(List.of("memory_forget", "memory_patch", "memory_save", "memory_search"),
                list.getList("result.tools.name").stream().map(String::valueOf).sorted().toList());
        JsonPath save = tool(url, "memory_save", "{\"scope\":\"user\",\"name\":\"style\",\"content\":\"Short answers.\","
                + "\"meta\":{\"description\":\"How to answer\"}}");
        assertFalse(save.getBoolean("result.isError"), save.prettify());
        assertTrue(save.getString("result.content[0].text").startsWith("Saved user/style"), save.prettify());
        assertEquals("mcp-agent", save.getString("result._meta.'dev.engram/write'.change.session"));

        JsonPath patch = tool(url, "memory_patch", "{\"scope\":\"user\",\"name\":\"style\",\"old_text\":\"Short\","
                + "\"new_text\":\"Brief\"}");
        assertFalse(patch.getBoolean("result.isError"), patch.prettify());

        JsonPath search = tool(url, "memory_search", "{\"query\":\"brief\"}");
        assertTrue(search.getString("result.content[0].text").contains("user/style (14 bytes): How to answer"),
                search.prettify());

        JsonPath readOnly = tool(url, "memory_save", "{\"scope\":\"rules\",\"name\":\"a\",\"content\":\"x\"}");
        assertTrue(readOnly.getBoolean("result.isError"));
        assertTrue(readOnly.getString("result.content[0].text").contains("scope rules is read-only"));

        JsonPath block = rpc(url, "resources/read", "{\"uri\":\"memory://block\"}");
        assertTrue(block.getString("result.contents[0].text").contains("### style (14 of 4096 bytes) — How to answer"),
                block.prettify());

        JsonPath forget = tool(url, "memory_forget", "{\"scope\":\"user\",\"name\":\"style\"}");
        assertFalse(forget.getBoolean("result.isError"), forget.prettify());
        given().get("/v1/stores/" + store + "/journal").then().statusCode(200)
                .body("records.session", org.hamcrest.Matchers.everyItem(org.hamcrest.Matchers.equalTo("mcp-agent")));
        given().get("/v1/stores/" + store + "/sessions/mcp-agent/manifests").then().statusCode(200)
                .body("records.size()", org.hamcrest.Matchers.equalTo(1));
    }

    @Test
    void aConnectionCanAskTheSearchToolForTheBestMatchesFirst() {
        String url = "/mcp?store=" + store + "&scope=user&search_order=relevance";
        Response init = post(url, "{\"jsonrpc\":\"2.0\",\"id\":" + (++id) + ",\"method\":\"initialize\","
                + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":"
                + "\"t\",\"version\":\"1\"}}}");
        mcpSession = init.header("Mcp-Session-Id");
        post(url, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        tool(url, "memory_save", "{\"name\":\"alpha\",\"content\":\"Deploy after review, then wait for the checks.\"}");
        tool(url, "memory_save", "{\"name\":\"beta\",\"content\":\"Deploy, deploy, deploy.\"}");
        String ranked = tool(url, "memory_search", "{\"query\":\"deploy\"}").getString("result.content[0].text");
        assertTrue(ranked.startsWith("2 matches in user for \"deploy\", best match first.\n\nuser/beta"), ranked);
        String byName = tool("/mcp?store=" + store + "&scope=user", "memory_search", "{\"query\":\"deploy\"}")
                .getString("result.content[0].text");
        assertTrue(byName.startsWith("2 matches in user for \"deploy\".\n\nuser/alpha"), byName);
        JsonPath bad = tool("/mcp?store=" + store + "&scope=user&search_order=best", "memory_search",
                "{\"query\":\"deploy\"}");
        assertTrue(bad.getBoolean("result.isError"));
        assertTrue(bad.getString("result.content[0].text").contains("search_order must be one of name, relevance"),
                bad.prettify());
    }

    @Test
    void aConnectionWithoutAStoreIsToldHowToNameOne() {
        String url = "/mcp";
        Response init = post(url, "{\"jsonrpc\":\"2.0\",\"id\":" + (++id) + ",\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
        mcpSession = init.header("Mcp-Session-Id");
        post(url, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        JsonPath r = tool(url, "memory_search", "{\"query\":\"x\"}");
        assertTrue(r.getBoolean("result.isError"));
        assertTrue(r.getString("result.content[0].text").contains("?store=<id>"), r.prettify());
    }
}
