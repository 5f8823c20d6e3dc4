package dev.engram.contexts.rest;

import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.llm.FakeChatApis.HeldAnswers;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A stored context's compaction with the summarizer while the model answers (WireMock holding its answers back): a
 * step appended meanwhile stays live after the prefix; steps replaced or the context reconfigured meanwhile are a
 * 409 with nothing written; a replica runs at most its bound of summarizations and the next is busy.
 */
@QuarkusTest
@TestProfile(CompactSummarizerApiTest.WithSummarizer.class)
class ContextSummarizerRacesApiTest extends SummarizerApiCases {

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
}
