package dev.engram.contexts.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.engram.llm.FakeChatApis.HeldAnswers;
import dev.engram.llm.FakeChatApis;
import dev.engram.rest.Api;
import io.agroal.api.AgroalDataSource;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the tests of a stored context's compaction with the summarizer share: the local fake of OpenAI's chat
 * completions (reset before each test, its held answers let go after), contexts made and stepped over REST, and
 * what PostgreSQL holds of them.
 */
abstract class SummarizerApiCases {

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

    long journalRecords(String store) throws Exception {
        try (java.sql.Connection c = db.getConnection(); java.sql.PreparedStatement p = c.prepareStatement(
                "select count(*) from journal where store_id = ?")) {
            p.setString(1, store);
            try (java.sql.ResultSet r = p.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder completion(String content) {
        return aResponse().withStatus(200).withHeader("Content-Type", "application/json")
                .withBody(FakeChatApis.openAiCompletion(content));
    }

    String store(String c) {
        return c.split("/")[3];
    }

    List<String> kinds(String c) throws Exception {
        List<String> kinds = new ArrayList<>();
        query("select kind from journal where store_id = ? order by seq", store(c), r -> kinds.add(r.getString(1)));
        return kinds;
    }

    List<JsonNode> compactedRecords(String c) throws Exception {
        List<JsonNode> records = new ArrayList<>();
        query("select record::text from journal where store_id = ? and kind = 'context.compacted' order by seq",
                store(c), r -> records.add(JSON.readTree(r.getString(1))));
        return records;
    }

    JsonNode record(String c, String kind) throws Exception {
        List<JsonNode> records = new ArrayList<>();
        query("select record::text from journal where store_id = ? and kind = '" + kind + "' order by seq desc",
                store(c), r -> records.add(JSON.readTree(r.getString(1))));
        return records.get(0);
    }

    /** The context's row and the store's journal and seq, to compare before and after a refusal. */
    String snapshot(String c) throws Exception {
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

    void query(String sql, String store, Row row) throws Exception {
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
