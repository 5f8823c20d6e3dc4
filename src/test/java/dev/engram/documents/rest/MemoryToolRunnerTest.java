package dev.engram.documents.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.engram.rest.Api.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.helpers.BetaMemoryToolHandler;
import com.anthropic.helpers.BetaToolRunner;
import com.anthropic.models.beta.messages.BetaMemoryTool20250818;
import com.anthropic.models.beta.messages.BetaMessage;
import com.anthropic.models.beta.messages.MessageCreateParams;
import com.anthropic.models.beta.messages.ToolRunnerCreateParams;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.engram.rest.Api;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The official Java SDK's {@link BetaToolRunner} with a {@link BetaMemoryToolHandler} that forwards every command to
 * Engram, against a fake Messages API (WireMock) that plays a model using the memory tool over four turns: the files
 * end in Engram's store as the model wrote them, and each tool_result the SDK sent back is Engram's answer.
 */
@QuarkusTest
class MemoryToolRunnerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private WireMockServer model;

    @BeforeEach
    void start() {
        model = new WireMockServer(wireMockConfig().dynamicPort());
        model.start();
    }

    @AfterEach
    void stop() {
        model.stop();
    }

    /** Forwards each command to Engram's memory-tool route of {@code store}, as a product would. */
    record Forwarding(String store) implements BetaMemoryToolHandler {

        private String run(ObjectNode input) {
            return json().body(input.toString()).post(MemoryToolApiTest.route(store)).then().statusCode(200)
                    .extract().jsonPath().getString("content");
        }

        private static ObjectNode command(String name, String path) {
            return JSON.createObjectNode().put("command", name).put("path", path);
        }

        @Override
        public String view(String path, Optional<List<Long>> viewRange) {
            ObjectNode input = command("view", path);
            viewRange.ifPresent(r -> input.putArray("view_range").add(r.get(0)).add(r.get(1)));
            return run(input);
        }

        @Override
        public String create(String path, String fileText) {
            return run(command("create", path).put("file_text", fileText));
        }

        @Override
        public String strReplace(String path, String oldStr, String newStr) {
            return run(command("str_replace", path).put("old_str", oldStr).put("new_str", newStr));
        }

        @Override
        public String insert(String path, long insertLine, String insertText) {
            return run(command("insert", path).put("insert_line", insertLine).put("insert_text", insertText));
        }

        @Override
        public String delete(String path) {
            return run(command("delete", path));
        }

        @Override
        public String rename(String oldPath, String newPath) {
            return run(JSON.createObjectNode().put("command", "rename").put("old_path", oldPath)
                    .put("new_path", newPath));
        }
    }

    /** An assistant message that calls the memory tool with {@code input}, or ends the turn with text. */
    private static String turn(int n, ObjectNode input) {
        ObjectNode m = JSON.createObjectNode().put("id", "msg_" + n).put("type", "message").put("role", "assistant")
                .put("model", "claude-sonnet-4-5");
        if (input == null) {
            m.putArray("content").addObject().put("type", "text").put("text", "Noted: you like coffee.");
            m.put("stop_reason", "end_turn");
        } else {
            m.putArray("content").addObject().put("type", "tool_use").put("id", "toolu_" + n).put("name", "memory")
                    .set("input", input);
            m.put("stop_reason", "tool_use");
        }
        m.putNull("stop_sequence");
        m.putObject("usage").put("input_tokens", 100).put("output_tokens", 20);
        return m.toString();
    }

    private void plays(List<ObjectNode> inputs) {
        String state = Scenario.STARTED;
        for (int i = 0; i <= inputs.size(); i++) {
            String next = "turn-" + (i + 1);
            model.stubFor(post(urlPathEqualTo("/v1/messages")).inScenario("model").whenScenarioStateIs(state)
                    .willSetStateTo(next).willReturn(aResponse().withStatus(200)
                            .withHeader("Content-Type", "application/json")
                            .withBody(turn(i + 1, i < inputs.size() ? inputs.get(i) : null))));
            state = next;
        }
    }

    @Test
    void theSdksToolRunnerKeepsTheModelsFilesInEngram() throws Exception {
        String store = Api.newStore();
        plays(List.of(
                JSON.createObjectNode().put("command", "view").put("path", "/memories"),
                JSON.createObjectNode().put("command", "create").put("path", "/memories/user/preferences.md")
                        .put("file_text", "# Preferences\n- Drinks tea\n"),
                JSON.createObjectNode().put("command", "str_replace").put("path", "/memories/user/preferences.md")
                        .put("old_str", "tea").put("new_str", "coffee"),
                JSON.createObjectNode().put("command", "view").put("path", "/memories/user/preferences.md")));
        AnthropicClient client = AnthropicOkHttpClient.builder().baseUrl(model.baseUrl()).apiKey("sk-ant-test")
                .maxRetries(0).build();
        BetaToolRunner runner = client.beta().messages().toolRunner(ToolRunnerCreateParams.builder()
                .initialMessageParams(MessageCreateParams.builder().model("claude-sonnet-4-5").maxTokens(1024)
                        .addUserMessage("Remember that I switched from tea to coffee.")
                        .addTool(BetaMemoryTool20250818.builder().build()).build())
                .betaMemoryToolHandler(new Forwarding(store)).maxIterations(10).build());
        List<BetaMessage> replies = new ArrayList<>();
        runner.forEach(replies::add);

        assertEquals(5, replies.size(), "four tool uses and the final answer");
        assertEquals("Noted: you like coffee.", replies.get(4).content().get(0).asText().text());
        List<String> results = toolResults();
        assertEquals(List.of(
                "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and "
                        + "node_modules:\n0\t/memories",
                "File created successfully at: /memories/user/preferences.md",
                "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
                        + "     1\t# Preferences\n     2\t- Drinks coffee",
                "Here's the content of /memories/user/preferences.md with line numbers:\n     1\t# Preferences\n"
                        + "     2\t- Drinks coffee"), results);
        assertEquals("Here's the content of /memories/user/preferences.md with line numbers:\n     1\t# Preferences\n"
                + "     2\t- Drinks coffee", MemoryToolApiTest.call(store,
                "{\"command\":\"view\",\"path\":\"/memories/user/preferences.md\"}").getString("content"));
        json().get("/v1/stores/" + store + "/journal").then().statusCode(200)
                .body("records.kind", org.hamcrest.Matchers.equalTo(List.of("document.created",
                        "document.modified")));
    }

    /** The tool_result of the last message of each request after the first, in order: what the SDK sent back. */
    private List<String> toolResults() throws Exception {
        List<LoggedRequest> requests = new ArrayList<>(model.findAll(
                com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor(urlPathEqualTo("/v1/messages"))));
        List<String> results = new ArrayList<>();
        for (LoggedRequest r : requests.subList(1, requests.size())) {
            JsonNode messages = JSON.readTree(r.getBodyAsString()).get("messages");
            JsonNode last = messages.get(messages.size() - 1);
            assertEquals("user", last.get("role").asText());
            JsonNode block = last.get("content").get(0);
            assertEquals("tool_result", block.get("type").asText());
            JsonNode content = block.get("content");
            results.add(content.isTextual() ? content.asText() : content.get(0).get("text").asText());
        }
        return results;
    }
}
