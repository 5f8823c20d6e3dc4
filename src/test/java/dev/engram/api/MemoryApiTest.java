package dev.engram.api;

import static dev.engram.api.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;

/** Memories over HTTP: the contract's operations, the journal's record of each, and refusals that write nothing. */
@QuarkusTest
class MemoryApiTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    AgroalDataSource db;

    static String memories(String store) {
        return "/v1/stores/" + store + "/memories";
    }

    @Test
    void aMemoryIsSavedReadListedSearchedAndJournaledAsTheApiShowsIt() throws Exception {
        String s = Api.newStore();
        String id = json().body("{\"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"content\": \"Apollo ships on "
                + "Friday.\", \"importance\": 0.9, \"tags\": [\"apollo\", \" deadline \", \"apollo\"], "
                + "\"created_at\": \"2026-11-01T09:00:00Z\"}").post(memories(s)).then().statusCode(201)
                .header("Location", startsWith("/v1/stores/" + s + "/memories/"))
                .body("bank_id", equalTo("user:alice")).body("type", equalTo("fact"))
                .body("source", equalTo("user_input")).body("tags", contains("apollo", "deadline"))
                .body("created_at", equalTo("2026-11-01T09:00:00Z")).extract().path("id");
        json().body("{\"bank\": {\"type\": \"user\", \"id\": \"alice\"}, \"content\": \"Apollo unrelated trivia\", "
                + "\"importance\": 0.2}").post(memories(s)).then().statusCode(201);
        String got = given().get(memories(s) + "/" + id).then().statusCode(200).extract().asString();

        JsonNode record = JSON.readTree(journal(s, 1));
        assertEquals(JSON.readTree(got), record, "the journal records the memory as the API shows it");

        given().get(memories(s) + "?bank=user:alice").then().statusCode(200).body("memories", hasSize(2))
                .body("memories[0].id", equalTo(id)).body("total", nullValue());
        given().get(memories(s) + "?limit=1").then().statusCode(200).body("memories", hasSize(1))
                .body("total", equalTo(2));
        json().body("{\"query\": \"Apollo Friday\", \"top_k\": 5, \"banks\": [\"user:alice\"]}")
                .post(memories(s) + "/search").then().statusCode(200).body("results", hasSize(2))
                .body("results[0].memory.id", equalTo(id));
        json().post(memories(s) + "/" + id + "/access").then().statusCode(200).body("access_count", equalTo(1));
        json().body("{\"reason\": \"done\"}").post(memories(s) + "/" + id + "/archive").then().statusCode(200)
                .body("archived", equalTo(true)).body("revisions[0].by", equalTo("archive"));
        json().body("{\"query\": \"Apollo Friday\"}").post(memories(s) + "/search").then().statusCode(200)
                .body("results", hasSize(1));
        given().delete(memories(s) + "/" + id).then().statusCode(204);
        given().get(memories(s) + "/" + id).then().statusCode(404);
        given().delete(memories(s)).then().statusCode(200).body("cleared", equalTo(1));
    }

    @Test
    void refusedRequestsWriteNothing() throws Exception {
        String s = Api.newStore();
        String id = json().body("{\"content\": \"kept\"}").post(memories(s)).then().statusCode(201).extract()
                .path("id");
        long before = count("select count(*) from journal where store_id = ?", s);
        json().body("{\"content\": \" \"}").post(memories(s)).then().statusCode(422).body("rule",
                equalTo("content-empty"));
        json().body("{\"content\": \"x\", \"importance\": 1.5}").post(memories(s)).then().statusCode(422);
        json().body("{\"content\": \"x\", \"type\": \"fiction\"}").post(memories(s)).then().statusCode(422);
        json().body("{\"content\": \"x\", \"bank\": {\"type\": \"user\", \"id\": \"a\"}, \"mood\": 1}")
                .post(memories(s)).then().statusCode(422);
        json().body("{\"content\": \"x\", \"created_at\": \"yesterday\"}").post(memories(s)).then().statusCode(422);
        json().body("{\"content\": \"x\", \"valid_from\": \"2026-02-01T00:00:00Z\", \"valid_to\": "
                + "\"2026-01-01T00:00:00Z\"}").post(memories(s)).then().statusCode(422);
        json().body("{\"by\": \"nowhere\"}").post(memories(s) + "/" + id + "/supersede").then().statusCode(422)
                .body("rule", equalTo("superseded-by-unknown"));
        json().body("{\"by\": \"leo\", \"summary\": \"x\"}").post(memories(s) + "/missing/revisions").then()
                .statusCode(404);
        json().body("{\"query\": \"a\", \"top_k\": 0}").post(memories(s) + "/search").then().statusCode(422);
        json().body("{\"query\": \"a\", \"banks\": [\"User:alice\"]}").post(memories(s) + "/search").then()
                .statusCode(422).body("rule", equalTo("bank-format"));
        given().get(memories(s) + "?bank=weird").then().statusCode(422);
        given().get(memories(s) + "/a%2Fb").then().statusCode(422);
        json().body("{\"content\": \"x\", \"id\": \"other\"}").put(memories(s) + "/mine").then().statusCode(422);
        assertEquals(before, count("select count(*) from journal where store_id = ?", s));
        assertEquals(1, count("select count(*) from memory where store_id = ?", s));
    }

    @Test
    void aModelRemembersAndRecallsThroughTheTools() {
        String s = Api.newStore();
        String call = "/v1/stores/" + s + "/tools/call";
        given().get("/v1/stores/" + s + "/tools?scope=user&bank=user:alice").then().statusCode(200)
                .body("tools.name", org.hamcrest.Matchers.hasItems("memory_remember", "memory_recall"));
        json().body("{\"name\": \"memory_remember\", \"bank\": \"user:alice\", \"arguments\": {\"content\": "
                + "\"Alice prefers tea.\", \"type\": \"preference\", \"importance\": 0.8}}").post(call).then()
                .statusCode(200).body("is_error", equalTo(false))
                .body("output", org.hamcrest.Matchers.matchesPattern("Remembered \\S+ in user:alice \\(preference, "
                        + "importance 0\\.80\\)\\."));
        json().body("{\"name\": \"memory_remember\", \"bank\": \"user:bob\", \"arguments\": {\"content\": "
                + "\"Bob prefers tea too.\"}}").post(call).then().statusCode(200);
        json().body("{\"name\": \"memory_recall\", \"bank\": \"user:alice\", \"arguments\": {\"query\": "
                + "\"tea\"}}").post(call).then().statusCode(200).body("is_error", equalTo(false))
                .body("output", org.hamcrest.Matchers.startsWith("1. [preference, importance 0.80, score "))
                .body("output", org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString("Bob")));
        json().body("{\"name\": \"memory_remember\", \"bank\": \"user:alice\", \"arguments\": {\"content\": "
                + "\"x\", \"importance\": 3}}").post(call).then().statusCode(200).body("is_error", equalTo(true));
        json().body("{\"name\": \"memory_recall\", \"arguments\": {\"query\": \"tea\"}}").post(call).then()
                .statusCode(422).body("rule", equalTo("bank-missing"));
        given().get(memories(s) + "?bank=user:alice").then().statusCode(200).body("memories", hasSize(1))
                .body("memories[0].source", equalTo("inferred"));
    }

    private String journal(String store, long seq) throws Exception {
        try (Connection c = db.getConnection(); PreparedStatement p = c.prepareStatement(
                "select record::text from journal where store_id = ? and seq = ?")) {
            p.setString(1, store);
            p.setLong(2, seq);
            try (ResultSet r = p.executeQuery()) {
                r.next();
                return r.getString(1);
            }
        }
    }

    private long count(String sql, String store) throws Exception {
        try (Connection c = db.getConnection(); PreparedStatement p = c.prepareStatement(sql)) {
            p.setString(1, store);
            try (ResultSet r = p.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}
