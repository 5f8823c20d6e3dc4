package dev.engram.mcp;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.NodeClients;
import dev.engram.TestAuth;
import dev.engram.journal.persistence.JournalSignals;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Engram's MCP endpoints driven by the real clients its users run, installed from src/test/node/mcp by the build
 * (npm ci in process-test-resources): the MCP TypeScript SDK (client.mjs) over Streamable HTTP and the legacy SSE
 * transport, and the MCP Inspector's CLI.
 */
@QuarkusTest
class McpNodeClientsTest {

    static final File DIR = new File("src/test/node/mcp");

    /** Skipped where Node.js is missing, failed there under ENGRAM_REQUIRE_NODE=1 (CI). */
    @BeforeEach
    void nodeClients() {
        NodeClients.assumeInstalled(DIR.toPath());
    }

    @TestHTTPResource("/")
    URI base;

    @Inject
    AgroalDataSource db;

    String store = "node-" + UUID.randomUUID().toString().substring(0, 8);

    /** Runs {@code command} in the client directory; each JSON line it prints is handed to {@code onLine}. */
    List<JsonObject> run(List<String> command, Consumer<JsonObject> onLine) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(DIR).redirectErrorStream(false);
        pb.environment().putAll(Map.of("ENGRAM_URL", base.toString(), "ENGRAM_KEY", TestAuth.OPERATOR_KEY,
                "ENGRAM_STORE", store, "NO_COLOR", "1"));
        Process p = pb.start();
        // a client that waits for what never comes is ended, and the test fails on its missing lines
        Thread watchdog = watchdog(p);
        StringBuilder err = new StringBuilder();
        Thread errors = new Thread(() -> {
            try (var r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                r.lines().forEach(l -> err.append(l).append('\n'));
            } catch (IOException ignored) {
                // the process ended
            }
        });
        errors.start();
        List<JsonObject> lines = new ArrayList<>();
        try (var r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.startsWith("{")) {
                    continue;
                }
                JsonObject json = new JsonObject(line);
                lines.add(json);
                onLine.accept(json);
            }
        }
        p.waitFor(5, TimeUnit.SECONDS);
        errors.join(5000);
        watchdog.interrupt();
        assertTrue(lines.stream().anyMatch(l -> l.containsKey("done")) || !command.get(1).equals("client.mjs"),
                "the client ran to its end: " + lines + "\n" + err);
        return lines;
    }

    /** What another replica does after a write to the store: tell the journal's channel (JournalSignals). */
    void otherReplicaWrote() {
        try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement("select pg_notify(?, ?)")) {
            s.setString(1, JournalSignals.CHANNEL);
            s.setString(2, store);
            s.execute();
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** Ends {@code p} if it is still running after two minutes, or when interrupted. */
    static Thread watchdog(Process p) {
        Thread t = new Thread(() -> {
            try {
                if (!p.waitFor(120, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException done) {
                p.destroyForcibly();
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    List<JsonObject> client(String scenario, Consumer<JsonObject> onLine) throws Exception {
        return run(List.of("node", "client.mjs", scenario), onLine);
    }

    static JsonObject line(List<JsonObject> lines, String member) {
        return lines.stream().filter(l -> l.containsKey(member)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + member + " in " + lines));
    }

    @Test
    void theTypeScriptSdkConnectsSavesSearchesAndIsToldOfARestWrite() throws Exception {
        List<JsonObject> lines = client("streamable", l -> {
            if ("rest-write".equals(l.getString("waiting"))) {
                given().contentType("application/json").body("{\"content\":\"Written over REST.\"}")
                        .put("/v1/stores/" + store + "/scopes/user/entries/from-rest").then()
                        .statusCode(org.hamcrest.Matchers.lessThan(300));
            } else if ("other-replica".equals(l.getString("waiting"))) {
                otherReplicaWrote();
            }
        });
        String instructions = line(lines, "instructions").getString("instructions");
        assertNotNull(instructions, "initialize gives instructions: " + lines);
        assertTrue(instructions.startsWith("The Memory block above is what you remember"), instructions);
        assertTrue(instructions.contains("store " + store + ": it writes scopes user, project, and reads rules"),
                instructions);
        assertTrue(instructions.contains("bank user:alice"), instructions);
        assertTrue(instructions.contains("Your memory bank holds typed memories"),
                "the recall tools' usage, as the bank lists them: " + instructions);

        JsonObject tools = line(lines, "tools");
        assertEquals(List.of("memory_forget", "memory_patch", "memory_recall", "memory_remember", "memory_save",
                "memory_search"), tools.getJsonArray("tools").getList());
        JsonObject scope = tools.getJsonObject("schemas").getJsonObject("memory_save").getJsonObject("properties")
                .getJsonObject("scope");
        assertEquals(new JsonArray().add("user").add("project"), scope.getJsonArray("enum"), scope.encode());
        JsonObject searchScopes = tools.getJsonObject("schemas").getJsonObject("memory_search")
                .getJsonObject("properties").getJsonObject("scopes").getJsonObject("items");
        assertEquals(new JsonArray().add("user").add("project").add("rules"), searchScopes.getJsonArray("enum"));

        JsonObject save = line(lines, "save").getJsonObject("save");
        assertFalse(save.getBoolean("isError"), save.encode());
        assertTrue(save.getString("text").startsWith("Saved project/deploys"), save.encode());
        assertTrue(line(lines, "search").getJsonObject("search").getString("text").contains("project/deploys"));

        assertEquals("memory://block", line(lines, "updated").getString("updated"), "the REST write was notified");
        assertEquals("memory://block", line(lines, "updatedByOtherReplica").getString("updatedByOtherReplica"),
                "another replica's write, told over LISTEN/NOTIFY, was notified");
        assertTrue(line(lines, "block").getString("block").contains("from-rest"));

        JsonObject complete = line(lines, "complete").getJsonObject("complete");
        assertEquals(-32602, complete.getInteger("code"), complete.encode());
        assertTrue(complete.getString("message").contains("no prompts and no resource templates"), complete.encode());
        assertFalse(complete.getString("message").contains("block_"), complete.encode());
        JsonObject elsewhere = line(lines, "subscribeElsewhere").getJsonObject("subscribeElsewhere");
        assertTrue(elsewhere.getString("message").contains("one resource to subscribe to: memory://block"),
                elsewhere.encode());
    }

    @Test
    void theLegacySseTransportKeepsTheQueryOfItsUrl() throws Exception {
        List<JsonObject> lines = client("sse", l -> { });
        String before = line(lines, "legacyBeforeInitialize").getString("legacyBeforeInitialize");
        assertTrue(before.contains("400") && before.contains("Send initialize first"), before);
        assertEquals(List.of("memory_forget", "memory_patch", "memory_recall", "memory_remember", "memory_save",
                "memory_search"), line(lines, "tools").getJsonArray("tools").getList());
        JsonObject save = line(lines, "save").getJsonObject("save");
        assertFalse(save.getBoolean("isError"), save.encode());
        assertTrue(save.getString("text").startsWith("Saved user/tea"), save.encode());
        JsonObject remember = line(lines, "remember").getJsonObject("remember");
        assertFalse(remember.getBoolean("isError"), remember.encode());
        given().get("/v1/stores/" + store + "/scopes/user/entries/tea").then().statusCode(200);
        assertTrue(line(lines, "instructions").getString("instructions").contains("store " + store));
    }

    @Test
    void aClientThatGetsTheProtocolWrongIsToldWhatToDo() throws Exception {
        List<JsonObject> lines = client("errors", l -> { });
        JsonObject noAccept = line(lines, "noAccept").getJsonObject("noAccept");
        assertEquals(400, noAccept.getInteger("status"));
        assertTrue(noAccept.getJsonObject("body").getString("detail").contains("Accept: application/json, "
                + "text/event-stream"), noAccept.encode());

        JsonObject before = line(lines, "beforeInitialize").getJsonObject("beforeInitialize");
        assertEquals(400, before.getInteger("status"), before.encode());
        assertEquals(-32600, before.getJsonObject("body").getJsonObject("error").getInteger("code"));
        assertEquals(2, before.getJsonObject("body").getInteger("id"));
        assertTrue(before.getJsonObject("body").getJsonObject("error").getString("message")
                .contains("Send initialize first"), before.encode());

        JsonObject discover = line(lines, "discover").getJsonObject("discover");
        assertEquals(200, discover.getInteger("status"), discover.encode());
        JsonObject error = discover.getJsonObject("body").getJsonObject("error");
        assertEquals(-32601, error.getInteger("code"), discover.encode());
        assertTrue(error.getString("message").contains("2026-07-28"), error.encode());
        assertEquals("2025-11-25", error.getJsonObject("data").getJsonArray("supportedVersions").getString(0));

        JsonObject header = line(lines, "newVersionHeader").getJsonObject("newVersionHeader");
        assertEquals(400, header.getInteger("status"));
        assertTrue(header.getJsonObject("body").getJsonObject("error").getString("message")
                .contains("does not speak MCP revision 2026-07-28"), header.encode());

        JsonObject newest = line(lines, "initializeNewest").getJsonObject("initializeNewest");
        assertEquals(200, newest.getInteger("status"));
        assertEquals("2025-11-25", newest.getString("result"), "initialize asking for 2026-07-28 gets the newest "
                + "revision the server speaks");

        JsonObject wellKnown = line(lines, "wellKnown").getJsonObject("wellKnown");
        assertEquals(404, wellKnown.getInteger("status"), wellKnown.encode());
        assertEquals("no-oauth", wellKnown.getJsonObject("body").getString("type").replaceAll(".*/", ""),
                wellKnown.encode());
        assertEquals(404, line(lines, "wellKnownMcp").getJsonObject("wellKnownMcp").getInteger("status"));
    }

    @Test
    void theInspectorCliListsAndCallsTheTools() throws Exception {
        String url = base.toString().replaceAll("/$", "") + "/mcp?store=" + store + "&scope=user";
        List<String> inspector = List.of("node", "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/"
                + "index.js", "--cli", url, "--transport", "http", "--header", "Authorization: Bearer "
                + TestAuth.OPERATOR_KEY);
        List<String> list = new ArrayList<>(inspector);
        list.addAll(List.of("--method", "tools/list"));
        String listed = runText(list);
        assertTrue(listed.contains("\"memory_save\"") && listed.contains("\"enum\""), listed);

        List<String> call = new ArrayList<>(inspector);
        call.addAll(List.of("--method", "tools/call", "--tool-name", "memory_save", "--tool-arg", "name=cli",
                "--tool-arg", "content=Saved by the Inspector."));
        String called = runText(call);
        assertTrue(called.contains("Saved user/cli"), called);
    }

    String runText(List<String> command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(DIR).redirectErrorStream(true);
        pb.environment().put("NO_COLOR", "1");
        pb.environment().put("MCP_CATALOG_PATH", new File("target/mcp-inspector-catalog.json").getAbsolutePath());
        Process p = pb.start();
        Thread watchdog = watchdog(p);
        String output;
        try (var r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            output = r.lines().collect(Collectors.joining("\n"));
        }
        p.waitFor(5, TimeUnit.SECONDS);
        watchdog.interrupt();
        return output;
    }
}
