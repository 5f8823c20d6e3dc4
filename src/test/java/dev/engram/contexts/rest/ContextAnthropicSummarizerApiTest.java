package dev.engram.contexts.rest;

import dev.engram.rest.Api;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.engram.rest.Api.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.llm.FakeChatApis;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A stored context's compaction with the summarizer on a fake of Anthropic's messages API (WireMock). */
@QuarkusTest
@TestProfile(CompactSummarizerApiTest.WithAnthropicSummarizer.class)
class ContextAnthropicSummarizerApiTest {

    @Test
    void anAnthropicModelsSummaryLandsInThePromptAndAContextMayNameAnotherOfItsModels() {
        CompactSummarizerApiTest.FakeModel.server.resetAll();
        FakeChatApis.anthropicAnswers(CompactSummarizerApiTest.FakeModel.server, 200, "The agent read f1 to f5.");
        String c = ContextSummarizerApiTest.created("{\"name\": \"summarization\", \"block_size\": 5, \"keep_last\": 2, "
                + "\"summarizer\": {\"model\": \"claude-haiku-4-5\"}}", 7);
        json().post(c + "/compact").then().statusCode(200);
        List<String> prompt = ContextSummarizerApiTest.prompt(c);
        assertEquals(List.of("Fix the build.", "The agent read f1 to f5.", "Thought 6"), prompt.subList(0, 3));
        CompactSummarizerApiTest.FakeModel.server.verify(1, postRequestedFor(urlEqualTo("/v1/messages"))
                .withHeader("x-api-key", equalTo("sk-fake"))
                .withRequestBody(matchingJsonPath("$.model", equalTo("claude-haiku-4-5")))
                .withRequestBody(containing("Observation 5")));
    }
}
