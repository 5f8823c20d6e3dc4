package dev.engram.contexts.rest;

import dev.engram.rest.Api;
import dev.engram.rest.IdempotencyKeys;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.engram.llm.FakeChatApis;
import dev.engram.llm.FakeChatApis.HeldAnswers;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A stored context's compaction with the summarizer configured against a local fake of OpenAI's chat completions
 * (WireMock, whose answers a test can hold back while it acts): the model's summaries land in the prompt in the
 * steps' order, its blocks asked at once; a failing, slow or nonsensical model leaves the reference's failure texts
 * and never a 5xx; a step appended while the model answers stays live; steps replaced meanwhile are a 409 with nothing
 * written; a replica runs at most its bound of summarizations; a context may name another model, or none.
 */
@QuarkusTest
@TestProfile(CompactSummarizerApiTest.WithSummarizer.class)
class ContextSummarizerApiTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String SUMMARIZATION = "{\"name\": \"summarization\", \"block_size\": 5, \"keep_last\": 2}";

    @Inject
    AgroalDataSource db;

    @BeforeEach
    void reset() {
        server().resetAll();
    }

    @AfterEach
    void letGo() {
        HeldAnswers.release();
    }

    static WireMockServer server() {
        return CompactSummarizerApiTest.FakeModel.server;
    }

    static String context(String store, String id) {
        return "/v1/stores/" + store + "/contexts/" + id;
    }

    /** A context compacting with {@code strategy}, a task and {@code steps} tool steps "Thought i" / "Observation i". */
    static String created(String strategy, int steps) {
        String c = context(Api.newStore(), "run");
        json().body("{\"model\": {\"context_window\": 8000, \"output_limit\": 1000}, \"strategy\": " + strategy
                + ", \"pruning\": {\"keep_last_n\": 0}}").put(c).then().statusCode(201);
        json().body("{\"text\": \"Fix the build.\"}").put(c + "/task").then().statusCode(200);
        appended(c, 1, steps);
        return c;
    }

    static void appended(String c, int from, int count) {
        List<String> steps = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            steps.add("{\"thought\": \"Thought " + i + "\", \"action\": {\"id\": \"c" + i + "\", \"name\": \"read_file\", "
                    + "\"input\": {\"path\": \"f" + i + ".txt\"}}, \"observation\": \"Observation " + i + "\"}");
        }
        json().body("{\"steps\": [" + String.join(", ", steps) + "]}").post(c + "/steps").then().statusCode(200);
    }

    static List<String> prompt(String c) {
        return given().get(c + "/prompt").then().statusCode(200).extract().path("messages.content");
    }

    static void modelAnswers(String content) {
        FakeChatApis.openAiAnswers(server(), 200, content, 0);
    }

    static Response compact(String c) {
        return json().post(c + "/compact");
    }

    /** What the fake model was sent as the text to summarize, request by request. */
    static List<String> sentTexts() throws Exception {
        List<String> texts = new ArrayList<>();
        for (var request : server().findAll(postRequestedFor(urlEqualTo("/v1/chat/completions")))) {
            texts.add(JSON.readTree(request.getBodyAsString()).at("/messages/1/content").asText());
        }
        return texts;
    }

    @Test
    void summarizationLandsTheModelsSummaryInThePromptAndTheRecordSaysAModelSummarized() throws Exception {
        String c = created(SUMMARIZATION, 7);
        modelAnswers("Read f1 to f5; the error is in Main.java.");
        double counted = ContextCompactionApiTest.compactions("summarization", true);
        compact(c).then().statusCode(200).body("compacted", equalTo(true)).body("summarized", equalTo(true))
                .body("$", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("summary_error")));
        assertEquals(List.of("Fix the build.", "Read f1 to f5; the error is in Main.java.", "Thought 6",
                "Observation 6", "Thought 7", "Observation 7"), prompt(c));
        assertEquals(List.of("Step 1:\n  Thought: Thought 1\n  Action: read_file\n  Observation: Observation 1\n\n"
                + "Step 2:\n  Thought: Thought 2\n  Action: read_file\n  Observation: Observation 2\n\nStep 3:\n"
                + "  Thought: Thought 3\n  Action: read_file\n  Observation: Observation 3\n\nStep 4:\n  Thought: "
                + "Thought 4\n  Action: read_file\n  Observation: Observation 4\n\nStep 5:\n  Thought: Thought 5\n"
                + "  Action: read_file\n  Observation: Observation 5\n"), sentTexts());
        given().get(c).then().statusCode(200).body("compacted", equalTo(true))
                .body("compacted_through_index", equalTo(7));
        JsonNode record = record(c, "context.compacted");
        assertEquals("summarization", record.get("strategy").asText());
        assertTrue(record.get("summarized").asBoolean());
        assertEquals("gpt-test", record.get("model").asText());
        assertEquals(0, record.get("summary_failures").asInt());
        assertEquals(counted + 1, ContextCompactionApiTest.compactions("summarization", true));
    }

    @Test
    void aSummarizingCompactionRetriedUnderItsKeyLandsOnceAndIsAnsweredWithTheFirstAnswer() throws Exception {
        String c = created(SUMMARIZATION, 7);
        String store = c.split("/")[3];
        modelAnswers("Read f1 to f5.");
        io.restassured.response.Response first = json().header("Idempotency-Key", "k-compact").post(c + "/compact");
        first.then().statusCode(200).body("compacted", equalTo(true)).header(IdempotencyKeys.REPLAYED,
                org.hamcrest.Matchers.nullValue());
        appended(c, 8, 6);
        long records = journalRecords(store);
        List<String> shown = prompt(c);

        io.restassured.response.Response retry = json().header("Idempotency-Key", "k-compact").post(c + "/compact");
        retry.then().statusCode(200).header(IdempotencyKeys.REPLAYED, "true");
        assertEquals(first.asString(), retry.asString(), "the first answer, though there is more to compact now");
        assertEquals(records, journalRecords(store), "the retry landed nothing");
        assertEquals(shown, prompt(c));
    }

    private long journalRecords(String store) throws Exception {
        try (java.sql.Connection c = db.getConnection(); java.sql.PreparedStatement p = c.prepareStatement(
                "select count(*) from journal where store_id = ?")) {
            p.setString(1, store);
            try (java.sql.ResultSet r = p.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    @Test
    void hierarchicalAsksForItsBlocksAtOnceAndKeepsThemInTheStepsOrder() throws Exception {
        String c = created("{\"name\": \"hierarchical\"}", 30);
        server().stubFor(post(urlEqualTo("/v1/chat/completions"))
                .withRequestBody(matchingJsonPath("$.messages[1].content", containing("from the distant zone")))
                .willReturn(completion("The distant past.")));
        server().stubFor(post(urlEqualTo("/v1/chat/completions"))
                .withRequestBody(matchingJsonPath("$.messages[1].content", containing("Thought: Thought 13")))
                .willReturn(completion("Steps 13 to 17.")));
        server().stubFor(post(urlEqualTo("/v1/chat/completions"))
                .withRequestBody(matchingJsonPath("$.messages[1].content", containing("Thought: Thought 18")))
                .willReturn(completion("Steps 18 to 21.")));
        HeldAnswers.hold();
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> compaction = caller.submit(() -> compact(c).then().extract().statusCode());
            HeldAnswers.awaitHeld(3);
            HeldAnswers.release();
            assertEquals(200, compaction.get());
        } finally {
            caller.shutdownNow();
        }
        List<String> prompt = prompt(c);
        assertEquals(List.of("Fix the build.", "The distant past.", "Steps 13 to 17.", "Steps 18 to 21.",
                "Thought 22"), prompt.subList(0, 5));
        assertEquals(1 + 3 + 9 * 2, prompt.size());
        assertEquals("hierarchical", record(c, "context.compacted").get("strategy").asText());
    }

    static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder completion(String content) {
        return aResponse().withStatus(200).withHeader("Content-Type", "application/json")
                .withBody(FakeChatApis.openAiCompletion(content));
    }

    @Test
    void aFailingSlowOrNonsensicalModelLeavesTheReferencesFailureTextsAndNoServerError() throws Exception {
        String failing = created(SUMMARIZATION, 7);
        FakeChatApis.openAiAnswers(server(), 500, "{\"error\": {\"message\": \"The server had an error\"}}", 0);
        compact(failing).then().statusCode(200).body("compacted", equalTo(true)).body("summarized", equalTo(false))
                .body("summary_error", equalTo("the summarizer failed on 1 of 1 blocks, which hold fallback texts: "
                        + "the summarizer (openai model gpt-test) failed: HTTP 500: The server had an error"));
        String text = prompt(failing).get(1);
        assertTrue(text.startsWith("[Summary of steps 1-5 failed: the summarizer (openai model gpt-test) failed: "),
                text);
        assertTrue(text.contains("The server had an error") && text.endsWith("]") && !text.contains("sk-fake"), text);
        JsonNode record = record(failing, "context.compacted");
        assertEquals(false, record.get("summarized").asBoolean());
        assertEquals(1, record.get("summary_failures").asInt());

        String hierarchical = created("{\"name\": \"hierarchical\"}", 10);
        compact(hierarchical).then().statusCode(200);
        List<String> zones = prompt(hierarchical).subList(1, 3);
        assertTrue(zones.get(0).startsWith("[distant zone: 4 steps summarized (error: the summarizer (openai model "
                + "gpt-test) failed: "), zones.toString());
        assertTrue(zones.get(1).startsWith("[middle zone: 3 steps summarized (error: "), zones.toString());

        server().resetAll();
        server().stubFor(post(urlEqualTo("/v1/chat/completions")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withBody("Sure! Here is your summary:")));
        String nonsense = created(SUMMARIZATION, 7);
        compact(nonsense).then().statusCode(200).body("summarized", equalTo(false))
                .body("summary_error", org.hamcrest.Matchers.not(containsString("Exception")))
                .body("summary_error", org.hamcrest.Matchers.not(containsString("dev.langchain4j")));
        assertTrue(prompt(nonsense).get(1).startsWith("[Summary of steps 1-5 failed: the summarizer (openai model "
                + "gpt-test) failed: "), prompt(nonsense).get(1));
        for (String internal : List.of("com.fasterxml", "dev.langchain4j", "Exception", "jackson")) {
            assertTrue(!prompt(nonsense).get(1).contains(internal), prompt(nonsense).get(1));
        }

        FakeChatApis.openAiAnswers(server(), 200, "Too late.", 5000);
        String slow = created(SUMMARIZATION, 7);
        compact(slow).then().statusCode(200);
        assertTrue(prompt(slow).get(1).startsWith("[Summary of steps 1-5 failed: the summarizer (openai model "
                + "gpt-test) failed: "), prompt(slow).get(1));
    }

    @Test
    void aStepAppendedWhileTheModelAnswersStaysLiveAfterThePrefix() throws Exception {
        String c = created(SUMMARIZATION, 7);
        modelAnswers("Steps 1 to 5.");
        HeldAnswers.hold();
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            Future<Response> compaction = caller.submit(() -> compact(c));
            HeldAnswers.awaitHeld(1);
            appended(c, 8, 1);
            HeldAnswers.release();
            compaction.get().then().statusCode(200).body("compacted", equalTo(true));
        } finally {
            caller.shutdownNow();
        }
        given().get(c).then().statusCode(200).body("steps", equalTo(8)).body("compacted_through_index", equalTo(7));
        assertEquals(List.of("Fix the build.", "Steps 1 to 5.", "Thought 6", "Observation 6", "Thought 7",
                "Observation 7", "Thought 8", "Observation 8"), prompt(c));
        assertEquals(List.of("context.configured", "context.task_set", "context.steps_appended",
                "context.steps_appended", "context.compacted"), kinds(c));

        json().body("{\"steps\": [{\"thought\": \"Thought 9\"}]}").post(c + "/steps").then().statusCode(200);
        assertEquals("Thought 9", prompt(c).get(8), "a later step follows the prefix and the step appended meanwhile");
    }

    @Test
    void stepsReplacedOrAContextReconfiguredWhileTheModelAnswersIsA409AndNothingIsWritten() throws Exception {
        String c = created(SUMMARIZATION, 7);
        modelAnswers("Steps 1 to 5.");
        String replace = "{\"steps\": [{\"thought\": \"resumed\"}, {\"thought\": \"again\"}, {\"thought\": \"more\"}]}";
        String reconfigure = "{\"model\": {\"context_window\": 9000, \"output_limit\": 1000}, \"strategy\": "
                + SUMMARIZATION + ", \"pruning\": {\"keep_last_n\": 0}}";
        for (Runnable meanwhile : List.<Runnable>of(
                () -> json().body(replace).put(c + "/steps").then().statusCode(200),
                () -> json().body(reconfigure).put(c).then().statusCode(200))) {
            appended(c, 100, 7);
            HeldAnswers.hold();
            ExecutorService caller = Executors.newSingleThreadExecutor();
            String before;
            Response refused;
            try {
                Future<Response> compaction = caller.submit(() -> compact(c));
                HeldAnswers.awaitHeld(1);
                meanwhile.run();
                before = snapshot(c);
                HeldAnswers.release();
                refused = compaction.get();
            } finally {
                caller.shutdownNow();
            }
            refused.then().statusCode(409).contentType("application/problem+json")
                    .body("type", containsString("context-changed"))
                    .body("detail", containsString("nothing was written"));
            assertEquals(before, snapshot(c), "the refused compaction wrote nothing");
            given().get(c).then().statusCode(200).body("compacted", equalTo(false));
        }
        assertEquals(0, kinds(c).stream().filter("context.compacted"::equals).count());
    }

    @Test
    void aReplicaRunsAtMostItsBoundOfSummarizationsAndTheNextIsBusy() throws Exception {
        List<String> contexts = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            contexts.add(created(SUMMARIZATION, 7));
        }
        String sliding = created("{\"name\": \"sliding_window\", \"keep_first\": 1, \"keep_last\": 1}", 7);
        modelAnswers("Summary.");
        HeldAnswers.hold();
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> running = new ArrayList<>();
            for (String c : contexts.subList(0, 4)) {
                running.add(callers.submit(() -> compact(c).then().extract().statusCode()));
            }
            HeldAnswers.awaitHeld(4);
            compact(contexts.get(4)).then().statusCode(503).contentType("application/problem+json")
                    .header("Retry-After", "5").body("type", containsString("busy"))
                    .body("limit", equalTo("summarizations")).body("max", equalTo(4));
            json().body("{\"format\": \"openai-chat\", \"messages\": " + CompactSummarizerApiTest.CONVERSATION
                    + ", \"strategy\": {\"name\": \"summarization\", \"keep_last\": 1}}").post("/v1/compact").then()
                    .statusCode(503).body("limit", equalTo("summarizations"));
            compact(sliding).then().statusCode(200).body("compacted", equalTo(true));
            HeldAnswers.release();
            for (Future<Integer> r : running) {
                assertEquals(200, r.get());
            }
        } finally {
            callers.shutdownNow();
        }
        given().get(contexts.get(4)).then().body("compacted", equalTo(false));
        compact(contexts.get(4)).then().statusCode(200).body("compacted", equalTo(true));
    }

    @Test
    void aContextMayNameAnotherModelOfTheServersProviderOrNone() throws Exception {
        String c = created("{\"name\": \"summarization\", \"block_size\": 5, \"keep_last\": 2, \"summarizer\": "
                + "{\"model\": \"gpt-4o-mini\"}}", 7);
        given().get(c).then().statusCode(200).body("config.strategy.summarizer.model", equalTo("gpt-4o-mini"));
        modelAnswers("Summarized by the smaller model.");
        compact(c).then().statusCode(200);
        server().verify(1, postRequestedFor(urlEqualTo("/v1/chat/completions"))
                .withRequestBody(matchingJsonPath("$.model", com.github.tomakehurst.wiremock.client.WireMock
                        .equalTo("gpt-4o-mini"))));
        assertEquals("Summarized by the smaller model.", prompt(c).get(1));
        assertEquals("gpt-4o-mini", record(c, "context.compacted").get("model").asText());

        json().body("{\"model\": {\"context_window\": 8000, \"output_limit\": 1000}, \"strategy\": {\"name\": "
                + "\"summarization\", \"block_size\": 5, \"keep_last\": 2, \"summarizer\": \"none\"}, \"pruning\": "
                + "{\"keep_last_n\": 0}}").put(c).then().statusCode(200).body("config.strategy.summarizer",
                        equalTo("none"));
        compact(c).then().statusCode(200);
        assertEquals("[... 5 steps summarized ...]", prompt(c).get(1));
        server().verify(1, postRequestedFor(urlEqualTo("/v1/chat/completions")));
        assertEquals(List.of(true, false), compactedRecords(c).stream().map(r -> r.get("summarized").asBoolean())
                .toList());

        String byDefault = created(SUMMARIZATION, 7);
        given().get(byDefault).then().body("config.strategy.summarizer", equalTo("server"));
        compact(byDefault).then().statusCode(200);
        server().verify(1, postRequestedFor(urlEqualTo("/v1/chat/completions"))
                .withRequestBody(matchingJsonPath("$.model", com.github.tomakehurst.wiremock.client.WireMock
                        .equalTo("gpt-test"))));
    }

    @Test
    void aSummarizerChoiceOtherThanServerNoneOrAModelNameIsRefusedAndWritesNothing() throws Exception {
        String c = created(SUMMARIZATION, 3);
        String before = snapshot(c);
        String[][] refused = {
            {"{\"model\": \"gpt-4o-mini\", \"base_url\": \"http://169.254.169.254/\"}", "summarizer-member"},
            {"{\"model\": \"gpt-4o-mini\", \"api_key\": \"sk-mine\"}", "summarizer-member"},
            {"{\"provider\": \"anthropic\", \"model\": \"claude\"}", "summarizer-member"},
            {"\"gpt-4o-mini\"", "summarizer-unknown"},
            {"42", "summarizer-unknown"},
            {"[\"none\"]", "summarizer-unknown"},
            {"{}", "summarizer-model"},
            {"{\"model\": \"\"}", "summarizer-model"},
            {"{\"model\": 5}", "summarizer-model"},
            {"{\"model\": \"two words\"}", "summarizer-model"},
            {"{\"model\": \"" + "m".repeat(201) + "\"}", "summarizer-model"},
        };
        for (String[] r : refused) {
            json().body("{\"strategy\": {\"name\": \"summarization\", \"summarizer\": " + r[0] + "}}").put(c).then()
                    .statusCode(422).contentType("application/problem+json").body("rule", equalTo(r[1]));
        }
        json().body("{\"strategy\": {\"name\": \"summarization\", \"summarizer\": {\"model\": \"x\", \"base_url\": "
                + "\"http://evil\"}}}").put(context(Api.newStore(), "new")).then().statusCode(422);
        assertEquals(before, snapshot(c), "refused configurations wrote nothing");
        server().verify(0, postRequestedFor(urlEqualTo("/v1/chat/completions")));
    }

    // ----------------------------------------------------------------------------------------------- helpers

    private String store(String c) {
        return c.split("/")[3];
    }

    private List<String> kinds(String c) throws Exception {
        List<String> kinds = new ArrayList<>();
        query("select kind from journal where store_id = ? order by seq", store(c), r -> kinds.add(r.getString(1)));
        return kinds;
    }

    private List<JsonNode> compactedRecords(String c) throws Exception {
        List<JsonNode> records = new ArrayList<>();
        query("select record::text from journal where store_id = ? and kind = 'context.compacted' order by seq",
                store(c), r -> records.add(JSON.readTree(r.getString(1))));
        return records;
    }

    private JsonNode record(String c, String kind) throws Exception {
        List<JsonNode> records = new ArrayList<>();
        query("select record::text from journal where store_id = ? and kind = '" + kind + "' order by seq desc",
                store(c), r -> records.add(JSON.readTree(r.getString(1))));
        return records.get(0);
    }

    /** The context's row and the store's journal and seq, to compare before and after a refusal. */
    private String snapshot(String c) throws Exception {
        List<String> parts = new ArrayList<>();
        query("select md5(config::text || state) from context where store_id = ?", store(c),
                r -> parts.add(r.getString(1)));
        query("select count(*) from journal where store_id = ?", store(c), r -> parts.add(r.getString(1)));
        query("select seq from store where id = ?", store(c), r -> parts.add(r.getString(1)));
        return String.join("/", parts);
    }

    interface Row {
        void read(ResultSet r) throws Exception;
    }

    private void query(String sql, String store, Row row) throws Exception {
        try (Connection conn = db.getConnection(); PreparedStatement p = conn.prepareStatement(sql)) {
            p.setString(1, store);
            try (ResultSet r = p.executeQuery()) {
                while (r.next()) {
                    row.read(r);
                }
            }
        }
    }
}
