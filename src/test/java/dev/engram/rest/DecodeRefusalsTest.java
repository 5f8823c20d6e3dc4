package dev.engram.rest;

import dev.engram.problems.Problem;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What Vert.x's decoder refuses in a request head is answered by {@link DecodeRefusals} with a problem,
 * {@code Connection: close}, and the connection closed. Each test first sends a normal request: the refusals are
 * installed on the listening socket by the first request it serves, so only connections accepted after one have them.
 */
@QuarkusTest
class DecodeRefusalsTest {

    @TestHTTPResource("/")
    URI base;

    @BeforeEach
    void aRequestFirst() {
        given().get("/q/health/live").then().statusCode(200);
    }


    private void refused(String head, int status, String slug) throws IOException {
        String answer = RawHttp.untilClosed(base, head);
        assertTrue(answer.startsWith("HTTP/1.1 " + status + " "), answer);
        int split = answer.indexOf("\r\n\r\n");
        assertTrue(split > 0, answer);
        String headers = answer.substring(0, split).toLowerCase();
        assertTrue(headers.contains("\r\ncontent-type: application/problem+json"), answer);
        assertTrue(headers.contains("\r\nconnection: close"), answer);
        JsonObject problem = new JsonObject(answer.substring(split + 4));
        assertEquals(Problem.TYPE_BASE + slug, problem.getString("type"), answer);
        assertEquals(status, problem.getInteger("status"), answer);
        assertTrue(problem.getString("title") != null && !problem.getString("title").isBlank(), answer);
        assertTrue(problem.getString("detail").chars().allMatch(c -> c >= 0x20 && c < 0x7f), answer);
    }

    @Test
    void aLongUriIs414() throws IOException {
        refused("GET /q/health/live?x=" + "a".repeat(20_000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n", 414,
                "uri-too-long");
    }

    @Test
    void headersOverTheLimitAre431() throws IOException {
        refused("GET /q/health/live HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "b".repeat(40_000) + "\r\n\r\n", 431,
                "headers-too-large");
    }

    @Test
    void nulInAHeaderValueIs400() throws IOException {
        refused("GET /q/health/live HTTP/1.1\r\nHost: localhost\r\nX-A: a\0b\r\n\r\n", 400, "request-malformed");
    }

    @Test
    void delInAHeaderNameIs400() throws IOException {
        refused("GET /q/health/live HTTP/1.1\r\nHost: localhost\r\nX-\u007fA: a\r\n\r\n", 400, "request-malformed");
    }

    @Test
    void duplicateContentLengthsAre400() throws IOException {
        refused("POST /v1/stores HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}x",
                400, "request-malformed");
    }

    @Test
    void aNegativeContentLengthIs400() throws IOException {
        refused("POST /v1/stores HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n{}", 400,
                "request-malformed");
    }

    @Test
    void contentLengthWithChunkedIs400() throws IOException {
        refused("POST /v1/stores HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nTransfer-Encoding: chunked"
                + "\r\n\r\n2\r\n{}\r\n0\r\n\r\n", 400, "request-malformed");
    }

    @Test
    void aNormalRequestOnAFreshConnectionIsServed() throws IOException {
        String answer = RawHttp.untilClosed(base, "GET /q/health/live HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
        assertTrue(answer.contains("UP"), answer);
    }
}
