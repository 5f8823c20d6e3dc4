package dev.engram.journal.rest;

import dev.engram.ConfigProfile;
import dev.engram.rest.Api;
import static dev.engram.rest.Api.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A replica serves a bounded number of live followers; one more is told to retry, with the numbers. */
@QuarkusTest
@TestProfile(JournalFollowersCapacityTest.TwoFollowers.class)
class JournalFollowersCapacityTest {

    /** A replica that serves two followers at most. */
    public static class TwoFollowers extends ConfigProfile {
        public TwoFollowers() {
            super(Map.of("engram.journal.max-followers", "2"));
        }
    }

    @TestHTTPResource("/")
    URI base;

    @Test
    void theFollowerOverTheBoundIsRefusedWithRetryAfter() throws Exception {
        String s = Api.newStore();
        put(s, "user", "first", "{\"content\":\"one\"}").then().statusCode(201);
        HttpClient client = HttpClient.newHttpClient();
        URI journal = base.resolve("/v1/stores/" + s + "/journal?after=0");
        JournalApiTest.Events one = JournalApiTest.Events.open(client, journal, null);
        JournalApiTest.Events two = JournalApiTest.Events.open(client, journal, null);
        try {
            one.ids(1);
            two.ids(1);
            HttpResponse<String> third = client.send(HttpRequest.newBuilder(journal)
                    .header("Accept", "text/event-stream")
                    .header("Authorization", "Bearer " + dev.engram.TestAuth.OPERATOR_KEY).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(503, third.statusCode());
            assertEquals("5", third.headers().firstValue("Retry-After").orElse(""));
            assertTrue(third.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
            JsonNode problem = new ObjectMapper().readTree(third.body());
            assertEquals("journal-followers", problem.get("limit").asText());
            assertEquals(2, problem.get("max").asInt());
        } finally {
            one.close();
            two.close();
        }
    }
}
