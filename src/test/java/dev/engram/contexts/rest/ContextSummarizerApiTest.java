package dev.engram.contexts.rest;

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
import dev.engram.llm.FakeChatApis.HeldAnswers;
import dev.engram.llm.FakeChatApis;
import dev.engram.rest.Api;
import dev.engram.rest.IdempotencyKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A stored context's compaction with the summarizer configured against a local fake of OpenAI's chat completions
 * (WireMock, whose answers a test can hold back while it acts): the model's summaries land in the prompt in the
 * steps' order, its blocks asked at once; a failing, slow or nonsensical model leaves the reference's failure texts
 * and never a 5xx; a context may name another model, or none. What happens while the model answers:
 * {@link ContextSummarizerRacesApiTest}.
 */
@QuarkusTest
@TestProfile(CompactSummarizerApiTest.WithSummarizer.class)
class ContextSummarizerApiTest extends SummarizerApiCases {

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
}
