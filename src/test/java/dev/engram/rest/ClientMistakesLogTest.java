package dev.engram.rest;

import dev.engram.problems.Problem;
import dev.engram.problems.Problems;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import dev.engram.ErrorLog;

/**
 * Client mistakes are not faults: a run of bad requests over REST and MCP, each answered with a 4xx problem or a
 * JSON-RPC error, logs nothing at ERROR; a fault still does.
 */
@QuarkusTest
class ClientMistakesLogTest {

    @RegisterExtension
    final ErrorLog errors = new ErrorLog();

    private static RequestSpecification json() {
        return given().contentType("application/json");
    }

    private String logged() {
        return errors.records().stream().map(r -> r.getLoggerName() + ": " + r.getMessage()
                + (r.getThrown() == null ? "" : " " + r.getThrown())).collect(Collectors.joining("\n"));
    }

    @Test
    void aRunOfBadRequestsLogsNoError() {
        String s = Api.newStore();
        String path = Api.entry(s, "user", "style");
        Api.put(s, "user", "style", "{\"content\":\"Short answers.\"}").then().statusCode(201);
        json().body("{\"content\":").put(path).then().statusCode(400);
        json().body(new byte[] {'{', '"', 'c', 'o', 'n', 't', 'e', 'n', 't', '"', ':', '"', (byte) 0xff, '"', '}'})
                .put(path).then().statusCode(400);
        json().body("{\"content\":5}").put(path).then().statusCode(422);
        json().body("{\"content\":\"x\",\"nope\":1}").put(path).then().statusCode(422);
        json().body("{\"content\":\"" + "x".repeat(5000) + "\"}").put(path).then().statusCode(413);
        json().body("{\"content\":\"" + "x".repeat(1_100_000) + "\"}").put(path).then().statusCode(413);
        json().header("If-Match", "\"sha256:" + "0".repeat(64) + "\"").body("{\"content\":\"x\"}").put(path)
                .then().statusCode(422);
        json().header("If-Match", "\"v:" + "0".repeat(64) + "\"").body("{\"content\":\"x\"}").put(path)
                .then().statusCode(412);
        given().header("If-Match", "").contentType("application/json").body("{\"content\":\"x\"}").put(path)
                .then().statusCode(422);
        given().contentType("text/plain").body("x").put(path).then().statusCode(415);
        given().get(Api.entry(s, "user", "nothing")).then().statusCode(404);
        given().get("/v1/stores/" + s + "/nowhere").then().statusCode(404);
        given().delete("/v1/stores/" + s).then().statusCode(405);
        given().urlEncodingEnabled(false).get("/v1/stores/" + s + ";x=1/scopes/user/entries/style").then()
                .statusCode(422);
        given().urlEncodingEnabled(false).get("/v1/stores/" + s + "/search?q=a%00b").then().statusCode(422);
        given().get("/v1/stores/Bad_Store").then().statusCode(422);
        given().contentType("application/json").body("{\"record\":{\"entries\":[{\"bytes\":99999999999}]}}")
                .post("/v1/manifests/apply").then().statusCode(422);
        given().contentType("application/json").post("/v1/stores/" + Api.newStore() + "/sessions/s1/render").then()
                .statusCode(404);
        given().contentType("application/json").body("{\"name\":\"memory_search\",\"scopes\":[\"user\"],"
                + "\"arguments\":{\"query\":\"a\\u0000b\"}}").post("/v1/stores/" + s + "/tools/call")
                .then().statusCode(200);

        String mcp = "/mcp?store=" + s;
        String accept = "application/json, text/event-stream";
        for (String body : List.of("{", "[]", "null", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
                "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}")) {
            int status = given().contentType("application/json").accept(accept).body(body).post(mcp).statusCode();
            assertTrue(status == 400, body + " -> " + status);
        }
        given().contentType("application/json").accept("application/json")
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").post(mcp).then().statusCode(400);
        given().contentType("application/json").accept(accept).header("Mcp-Session-Id", "no-such-session")
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").post(mcp).then().statusCode(404);
        given().header("Mcp-Session-Id", "no-such-session").delete(mcp).then().statusCode(404);

        assertEquals("", logged(), "no client mistake is logged at ERROR");
    }

    @Test
    void aFaultIsStillLoggedAtError() {
        Problem p = Problems.problem(new IllegalStateException("a fault"));
        assertEquals(500, p.status());
        assertTrue(logged().contains("Request failed"), logged());
    }
}
