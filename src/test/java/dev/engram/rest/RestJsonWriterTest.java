package dev.engram.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The JSON answers {@link RestJsonWriter} writes: whole, with their length, and in the REST API's snake_case. A
 * flush of the generator passed on to the stream would send them in chunks instead.
 */
@QuarkusTest
class RestJsonWriterTest {

    @Test
    void aJsonAnswerIsSentWithItsLengthNotInChunks() {
        String store = Api.newStore();
        Api.put(store, "user", "style", "{\"content\":\"Short answers, ünïcode and all.\"}").then().statusCode(201);

        Response read = Api.json().get(Api.entry(store, "user", "style"));
        assertOneAnswer(read);
        assertEquals("Short answers, ünïcode and all.", read.jsonPath().getString("content"));

        Response summary = Api.json().get("/v1/stores/" + store);
        assertOneAnswer(summary);
        assertEquals(1, summary.jsonPath().getInt("scopes.user"));
        assertEquals(true, summary.jsonPath().getMap("$").containsKey("max_entry_bytes"));
    }

    private static void assertOneAnswer(Response r) {
        assertEquals(200, r.statusCode());
        assertEquals("application/json;charset=UTF-8", r.contentType());
        assertNull(r.header("Transfer-Encoding"));
        assertEquals(String.valueOf(r.asByteArray().length), r.header("Content-Length"));
        assertEquals(r.asString(), new String(r.asByteArray(), StandardCharsets.UTF_8));
    }
}
