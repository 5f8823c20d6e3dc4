package dev.engram.contexts.rest;

import dev.engram.rest.Api;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.contexts.cache.ToolResultCache;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A context's prompt over HTTP in its three forms, and {@code tool_result_read} as a tool of
 * {@code POST .../tools/call} beside the context's own read route: what each answers, what each refuses (writing
 * nothing), and the count of cache reads by outcome in {@code /q/metrics}.
 */
@QuarkusTest
class ContextPromptApiTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String OUTPUT = "line1\nline2\nline3";

    /** A store with context run-1: a system prompt with a cache break, a task, a cached read, an interjection. */
    static String filled() {
        String s = Api.newStore();
        String c = "/v1/stores/" + s + "/contexts/run-1";
        json().body("{\"pruning\": {\"keep_last_n\": 0}}").put(c).then().statusCode(201);
        json().body("{\"text\": \"You fix builds.\\u0000CACHE_BREAK\\u0000Repository: engram.\"}")
                .put(c + "/system-prompt").then().statusCode(200);
        json().body("{\"text\": \"Fix the build.\"}").put(c + "/task").then().statusCode(200);
        json().body("{\"steps\": [{\"thought\": \"Read it.\", \"action\": {\"id\": \"c1\", \"name\": \"read_file\", "
                + "\"input\": {\"path\": \"a.txt\"}}, \"observation\": \"" + OUTPUT.replace("\n", "\\n")
                + "\", \"cache\": true}]}").post(c + "/steps").then().statusCode(200);
        json().body("{\"text\": \"Report now.\"}").put(c + "/interjection").then().statusCode(200);
        return s;
    }

    static String hash() {
        return ToolResultCache.contentHash("read_file", OUTPUT).substring(0, 4);
    }

    static JsonNode prompt(String s, String query) throws Exception {
        JsonNode prompt = JSON.readTree(given().get("/v1/stores/" + s + "/contexts/run-1/prompt" + query).then()
                .statusCode(200).extract().asString());
        ProviderShapes.assertValid(query.replace("?format=", ""), prompt, "prompt" + query);
        return prompt;
    }

    @Test
    void thePromptComesInTheFormAskedFor() throws Exception {
        String s = filled();
        assertEquals(JSON.readTree("{\"messages\": ["
                + "{\"role\": \"system\", \"content\": \"You fix builds.\"},"
                + "{\"role\": \"system\", \"content\": \"Repository: engram.\"},"
                + "{\"role\": \"user\", \"content\": \"Fix the build.\"},"
                + "{\"role\": \"assistant\", \"content\": \"Read it.\", \"tool_calls\": [{\"id\": \"c1\", \"type\": "
                + "\"function\", \"function\": {\"name\": \"read_file\", "
                + "\"arguments\": \"{\\\"path\\\":\\\"a.txt\\\"}\"}}]},"
                + "{\"role\": \"tool\", \"tool_call_id\": \"c1\", \"content\": \"line1\\nline2\\nline3\"},"
                + "{\"role\": \"user\", \"content\": \"Report now.\"}]}"), prompt(s, "?format=openai-chat"));
        assertEquals(JSON.readTree("{\"system\": [{\"type\": \"text\", \"text\": \"You fix builds.\"}, "
                + "{\"type\": \"text\", \"text\": \"Repository: engram.\"}], \"messages\": ["
                + "{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"Fix the build.\"}]},"
                + "{\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": \"Read it.\"}, {\"type\": "
                + "\"tool_use\", \"id\": \"c1\", \"name\": \"read_file\", \"input\": {\"path\": \"a.txt\"}}]},"
                + "{\"role\": \"user\", \"content\": [{\"type\": \"tool_result\", \"tool_use_id\": \"c1\", "
                + "\"content\": \"line1\\nline2\\nline3\"}, {\"type\": \"text\", \"text\": \"Report now.\"}]}]}"),
                prompt(s, "?format=anthropic"));
        JsonNode neutral = prompt(s, "");
        assertEquals(neutral, prompt(s, "?format=neutral"));
        assertEquals("tool", neutral.at("/messages/4/role").asText());
        assertEquals("c1", neutral.at("/messages/4/tool_call_id").asText());
    }

    @Test
    void anUnknownFormatIs422NamingTheThreeAndWritesNothing() {
        String s = filled();
        int records = journal(s);
        given().get("/v1/stores/" + s + "/contexts/run-1/prompt?format=gemini").then().statusCode(422)
                .contentType("application/problem+json").body("rule", equalTo("format-unknown"))
                .body("field", equalTo("format"))
                .body("detail", containsString("neutral (the default), openai-chat or anthropic"));
        given().get("/v1/stores/" + s + "/contexts/no-such/prompt?format=anthropic").then().statusCode(404);
        assertEquals(records, journal(s));
    }

    static int journal(String s) {
        return given().get("/v1/stores/" + s + "/journal").then().statusCode(200).extract().path("records.size()");
    }

    static io.restassured.response.ValidatableResponse call(String s, String body) {
        return json().body(body).post("/v1/stores/" + s + "/tools/call").then();
    }

    @Test
    void toolResultReadReadsAWindowOfTheNamedContextsCache() {
        String s = filled();
        String h = hash();
        call(s, "{\"name\": \"tool_result_read\", \"context\": \"run-1\", \"arguments\": {\"hash\": \"" + h
                + "\", \"start_line\": 2, \"num_lines\": 1}}").statusCode(200).body("is_error", equalTo(false))
                .body("output", equalTo("[Lines 2-2 of 3 from cached read_file result | hash: " + h + "]\nline2\n\n"
                        + "[Use tool_result_read(hash=\"" + h + "\", start_line=3, num_lines=1) to continue reading]"));
        call(s, "{\"name\": \"tool_result_read\", \"context\": \"run-1\", \"arguments\": \"{\\\"hash\\\": \\\""
                + ToolResultCache.contentHash("read_file", OUTPUT) + "\\\", \\\"line\\\": 3}\"}").statusCode(200)
                .body("is_error", equalTo(false)).body("output", containsString("[Line 3 of 3 from cached read_file"));
        call(s, "{\"name\": \"tool_result_read\", \"context\": \"run-1\", \"arguments\": {\"hash\": \"" + h
                + "\", \"num_lines\": 5000}}").statusCode(200)
                .body("output", equalTo("[Lines 1-3 of 3 from cached read_file result | hash: " + h + "]\n" + OUTPUT));
        given().get("/v1/stores/" + s + "/tools?scope=user&context=run-1").then().statusCode(200)
                .body("tools.name", org.hamcrest.Matchers.hasItem("tool_result_read"))
                .body("tools.find { it.name == 'tool_result_read' }.input_schema.required", equalTo(List.of("hash")))
                .body("tools.find { it.name == 'tool_result_read' }.annotations.read_only_hint", equalTo(true));
        given().get("/v1/stores/" + s + "/tools?scope=user").then().statusCode(200)
                .body("tools.name", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasItem("tool_result_read")));
    }

    @Test
    void aHashNoOutputHasIsTheReferencesToolErrorAndBadCallsWriteNothing() {
        String s = filled();
        int records = journal(s);
        for (String hash : List.of("ffff", "zz-top", "0")) {
            call(s, "{\"name\": \"tool_result_read\", \"context\": \"run-1\", \"arguments\": {\"hash\": \"" + hash
                    + "\"}}").statusCode(200).body("is_error", equalTo(true)).body("output", equalTo("No cached "
                    + "result found for hash: " + hash + ". The cache entry may have expired or the hash is "
                    + "incorrect."));
        }
        String tool = "{\"name\": \"tool_result_read\", \"context\": \"run-1\", \"arguments\": ";
        call(s, tool + "{}}").statusCode(200).body("is_error", equalTo(true))
                .body("output", equalTo("validation error: hash is required"));
        for (String bad : List.of("\"start_line\": -1", "\"start_line\": \"two\"", "\"num_lines\": 0",
                "\"num_lines\": 1.5", "\"line\": -3")) {
            call(s, tool + "{\"hash\": \"" + hash() + "\", " + bad + "}}").statusCode(200)
                    .body("is_error", equalTo(true)).body("output", containsString("must be a whole number from 1"));
        }
        call(s, tool + "{\"hash\": \"" + hash() + "\", \"path\": \"a.txt\"}}").statusCode(200)
                .body("is_error", equalTo(true)).body("output", containsString("Unknown argument \"path\""));
        call(s, tool + "\"not json\"}").statusCode(200).body("is_error", equalTo(true));
        call(s, "{\"name\": \"tool_result_read\", \"arguments\": {\"hash\": \"ffff\"}}").statusCode(422)
                .body("rule", equalTo("context-missing"));
        call(s, "{\"name\": \"tool_result_read\", \"context\": \"Bad Id!\", \"arguments\": {}}").statusCode(422);
        call(s, "{\"name\": \"tool_result_read\", \"context\": \"run-2\", \"arguments\": {\"hash\": \"ffff\"}}")
                .statusCode(404);
        json().header("Idempotency-Key", "k-1").body(tool + "{\"hash\": \"ffff\"}}")
                .post("/v1/stores/" + s + "/tools/call").then().statusCode(422)
                .body("rule", equalTo("idempotency-key-not-taken"));
        String route = "/v1/stores/" + s + "/contexts/run-1/tool-results/";
        given().get(route + hash() + "?start_line=-1").then().statusCode(422).body("field", equalTo("start_line"));
        given().get(route + hash() + "?num_lines=abc").then().statusCode(422).body("field", equalTo("num_lines"));
        given().get(route + "XYZ").then().statusCode(422).body("rule", equalTo("hash-format"));
        given().get(route + "ffff").then().statusCode(404);
        assertEquals(records, journal(s));
    }

    @Test
    void everyReadOfTheCacheCountsAsAHitOrAMiss() {
        String s = filled();
        double hits = reads("hit");
        double misses = reads("miss");
        String route = "/v1/stores/" + s + "/contexts/run-1/tool-results/";
        given().get(route + hash()).then().statusCode(200);
        given().get(route + "ffff").then().statusCode(404);
        call(s, "{\"name\": \"tool_result_read\", \"context\": \"run-1\", \"arguments\": {\"hash\": \"" + hash()
                + "\"}}").statusCode(200).body("is_error", equalTo(false));
        call(s, "{\"name\": \"tool_result_read\", \"context\": \"run-1\", \"arguments\": {\"hash\": \"abcdef\"}}")
                .statusCode(200).body("is_error", equalTo(true));
        call(s, "{\"name\": \"tool_result_read\", \"context\": \"run-1\", \"arguments\": {\"hash\": \"" + hash()
                + "\", \"start_line\": 0}}").statusCode(200).body("is_error", equalTo(true));
        assertEquals(hits + 2, reads("hit"));
        assertEquals(misses + 2, reads("miss"));
    }

    static double reads(String outcome) {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("engram_context_tool_results_read_total\\{[^}]*outcome=\"" + outcome
                + "\"[^}]*} ([0-9.E]+)").matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
