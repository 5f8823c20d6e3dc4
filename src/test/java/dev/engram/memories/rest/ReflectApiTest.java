package dev.engram.memories.rest;

import dev.engram.rest.Sql;
import dev.engram.rest.Api;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.engram.rest.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reflection over HTTP with the llm reflector configured against a local fake of an OpenAI-compatible API
 * (WireMock): observations land with their journal records; a model that fails or answers nonsense is a 502 and
 * nothing is written.
 */
@QuarkusTest
@TestProfile(ReflectApiTest.WithModel.class)
class ReflectApiTest {

    static final ObjectMapper JSON = new ObjectMapper();

    /** A fake chat-completions API, started before Engram so that its URL is in Engram's settings. */
    public static class FakeModel implements QuarkusTestResourceLifecycleManager {

        static WireMockServer server;

        @Override
        public Map<String, String> start() {
            server = new WireMockServer(wireMockConfig().dynamicPort());
            server.start();
            return Map.of("engram.reflect.llm.model", "gpt-test", "engram.reflect.llm.base-url",
                    server.baseUrl() + "/v1", "engram.reflect.llm.api-key", "sk-fake", "engram.reflect.llm.timeout",
                    "3s");
        }

        @Override
        public void stop() {
            server.stop();
        }
    }

    /** Engram with its llm reflector on the fake model. */
    public static class WithModel implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(FakeModel.class));
        }
    }

    @Inject
    AgroalDataSource db;

    @BeforeEach
    void reset() {
        FakeModel.server.resetAll();
    }

    static void modelAnswers(int status, String content) {
        dev.engram.llm.FakeChatApis.openAiAnswers(FakeModel.server, status, content, 0);
    }

    static String facts(String... ids) {
        String s = Api.newStore();
        for (String id : ids) {
            json().body("{\"id\": \"" + id + "\", \"bank\": {\"type\": \"user\", \"id\": \"alice\"}, "
                    + "\"content\": \"Apollo fact " + id + "\", \"importance\": 0.6}")
                    .post("/v1/stores/" + s + "/memories").then().statusCode(201);
        }
        return s;
    }

    @Test
    void theModelsObservationLandsWithItsJournalRecordAndASecondReflectAsksNothing() throws Exception {
        String s = facts("f1", "f2", "f3");
        modelAnswers(200, "{\"observations\": [{\"content\": \"Apollo is on track.\", \"confidence\": 0.75, "
                + "\"evidence_ids\": [\"f1\", \"f2\", \"f3\"], \"conflicting\": false, "
                + "\"update_observation_id\": \"\"}]}");
        String id = json().post("/v1/stores/" + s + "/banks/user:alice/reflect").then().statusCode(200)
                .body("created", equalTo(1)).body("updated", equalTo(0)).body("reviewed", equalTo(3))
                .body("reflector", equalTo("llm")).body("note", equalTo("")).body("new_ids", hasSize(1))
                .extract().path("new_ids[0]");
        given().get("/v1/stores/" + s + "/memories/" + id).then().statusCode(200)
                .body("type", equalTo("observation")).body("source", equalTo("consolidated"))
                .body("importance", equalTo(0.75f)).body("evidence", contains("f1", "f2", "f3"))
                .body("bank_id", equalTo("user:alice"));
        given().get("/v1/stores/" + s + "/journal").then().statusCode(200)
                .body("records.kind", contains("memory.saved", "memory.saved", "memory.saved", "memory.saved"))
                .body("records[3].record.id", equalTo(id));
        FakeModel.server.verify(1, postRequestedFor(urlEqualTo("/v1/chat/completions"))
                .withRequestBody(matchingJsonPath("$.messages[1].content", containing("Apollo fact f2"))));

        json().post("/v1/stores/" + s + "/banks/user:alice/reflect").then().statusCode(200)
                .body("created", equalTo(0)).body("reviewed", equalTo(0))
                .body("note", equalTo("not enough new facts to consolidate (need ≥2)"));
        FakeModel.server.verify(1, postRequestedFor(urlEqualTo("/v1/chat/completions")));
    }

    @Test
    void nonsenseFromTheModelIsA502AndNothingIsWritten() throws Exception {
        String s = facts("f1", "f2");
        long journal = count("select count(*) from journal where store_id = ?", s);
        for (String nonsense : List.of("I cannot help with that.",
                "{\"observations\": [{\"content\": \"Fine.\", \"confidence\": 0.5, \"evidence_ids\": [\"f1\", \"f2\"]},"
                        + " {\"content\": \"Invented.\", \"confidence\": 0.5, \"evidence_ids\": [\"f1\", \"f9\"]}]}")) {
            modelAnswers(200, nonsense);
            json().post("/v1/stores/" + s + "/banks/user:alice/reflect").then().statusCode(502)
                    .contentType("application/problem+json").body("type", containsString("reflector-answer"))
                    .body("reflector", equalTo("llm")).body("detail", containsString("Nothing was saved"));
        }
        assertEquals(journal, count("select count(*) from journal where store_id = ?", s));
        assertEquals(2, count("select count(*) from memory where store_id = ?", s));
    }

    @Test
    void aFailingModelIsA502WithRetryAfterAndNothingIsWritten() throws Exception {
        String s = facts("f1", "f2");
        modelAnswers(500, "{\"error\": {\"message\": \"The server had an error\"}}");
        json().post("/v1/stores/" + s + "/banks/user:alice/reflect").then().statusCode(502)
                .header("Retry-After", "5").body("type", containsString("reflector-failed"))
                .body("detail", containsString("The server had an error"));
        assertEquals(2, count("select count(*) from memory where store_id = ?", s));
        assertEquals(2, count("select count(*) from journal where store_id = ?", s));
    }

    @Test
    void theDeterministicReflectorIsThereBesideTheModel() {
        String s = Api.newStore();
        for (String id : List.of("a1", "a2")) {
            json().body("{\"id\": \"" + id + "\", \"bank\": {\"type\": \"user\", \"id\": \"alice\"}, "
                    + "\"content\": \"Apollo " + id + "\", \"tags\": [\"apollo\"]}")
                    .post("/v1/stores/" + s + "/memories").then().statusCode(201);
        }
        json().body("{\"reflector\": \"deterministic\"}").post("/v1/stores/" + s + "/banks/user:alice/reflect")
                .then().statusCode(200).body("created", equalTo(1)).body("reflector", equalTo("deterministic"));
        FakeModel.server.verify(0, postRequestedFor(urlEqualTo("/v1/chat/completions")));
    }

    @Test
    void aReplicaRunsAtMostItsBoundOfReflectionsAtOnceAndTheNextIsBusy() throws Exception {
        List<String> stores = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            stores.add(facts("f1", "f2"));
        }
        dev.engram.llm.FakeChatApis.openAiAnswers(FakeModel.server, 200, "{\"observations\": []}", 2500);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(5);
        List<Integer> statuses;
        try {
            List<java.util.concurrent.Future<Integer>> calls = new java.util.ArrayList<>();
            for (String s : stores) {
                calls.add(pool.submit(() -> json().post("/v1/stores/" + s + "/banks/user:alice/reflect")
                        .then().extract().statusCode()));
            }
            statuses = new java.util.ArrayList<>();
            for (var f : calls) {
                statuses.add(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(4, statuses.stream().filter(st -> st == 200).count(), statuses.toString());
        assertEquals(1, statuses.stream().filter(st -> st == 503).count(), statuses.toString());
        modelAnswers(200, "{\"observations\": []}");
        json().post("/v1/stores/" + stores.get(0) + "/banks/user:alice/reflect").then().statusCode(200);
    }

    private long count(String sql, String store) throws Exception {
        return Sql.count(db, sql, store);
    }
}
