package dev.engram.journal.rest;

import dev.engram.rest.Api;
import static dev.engram.rest.Api.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Live followers are woken, not polling: a write through another replica reaches them by PostgreSQL
 * {@code NOTIFY}, and a follower with nothing new costs no query.
 */
@QuarkusTest
class JournalFollowersTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    JournalFollowers followers;

    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void aWriteThroughAnotherReplicaReachesTheFollowerThroughItsNotification() throws Exception {
        String s = Api.newStore();
        JournalApiTest.Events events = followAfterOneWrite(s);
        try {
            assertEquals(List.of(1L), events.ids(1));
            // Another replica: its write is a call of the write function, then its notification, from a database
            // session this process does not use for its own notifications. No event of this process is fired.
            try (Connection c = dataSource.getConnection()) {
                try (PreparedStatement w = c.prepareStatement("select seq from engram_put(?, 4096, 'user', "
                        + "'elsewhere', 'written by another replica', '{}', ?, 'elsewhere', '', null, null)")) {
                    w.setString(1, s);
                    w.setString(2, dev.engram.entries.Hash.of("written by another replica"));
                    w.execute();
                }
                try (PreparedStatement n = c.prepareStatement("select pg_notify('engram_journal', ?)")) {
                    n.setString(1, "some-other-store," + s);
                    n.execute();
                }
            }
            JsonNode record = events.next();
            assertEquals(2, record.get("seq").asInt());
            assertEquals("written by another replica", record.path("entry").path("content").asText());
        } finally {
            events.close();
        }
    }

    @Test
    void aFollowerWithNothingNewCostsNoQuery() throws Exception {
        String s = Api.newStore();
        JournalApiTest.Events events = followAfterOneWrite(s);
        try {
            assertEquals(List.of(1L), events.ids(1));
            Thread.sleep(300);
            long before = followers.reads();
            assertTrue(events.nothingWithin(java.time.Duration.ofMillis(2000)));
            assertEquals(before, followers.reads(), "an idle follower read the journal");
            put(s, "user", "second", "{\"content\":\"two\"}").then().statusCode(201);
            assertEquals(2, events.next().get("seq").asInt());
            assertTrue(followers.reads() > before, "a write woke the follower");
        } finally {
            events.close();
        }
    }

    /** Writes the store's first entry, then follows its journal from the start. */
    private JournalApiTest.Events followAfterOneWrite(String s) throws Exception {
        put(s, "user", "first", "{\"content\":\"one\"}").then().statusCode(201);
        return JournalApiTest.Events.open(client, base.resolve("/v1/stores/" + s + "/journal?after=0"), null);
    }
}
