package dev.engram.rest;

import dev.engram.problems.Problems;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * No statement of Engram's runs longer than {@code engram.statement-timeout} (5 s): PostgreSQL cancels it, and a
 * request waiting on it is answered 503 with Retry-After instead of hanging, having written nothing.
 */
@QuarkusTest
class StatementTimeoutTest {

    @Inject
    AgroalDataSource db;

    @Test
    void everyPooledConnectionCarriesTheTimeout() throws Exception {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            try (ResultSet r = s.executeQuery("show statement_timeout")) {
                r.next();
                assertEquals("5s", r.getString(1));
            }
            SQLException cancelled = assertThrows(SQLException.class, () -> s.execute("select pg_sleep(60)"));
            assertEquals("57014", cancelled.getSQLState(), cancelled.getMessage());
            assertEquals(503, Problems.problem(cancelled).status());
        }
    }

    @Test
    void aWriteStuckBehindALockIsAnswered503AndWritesNothing() throws Exception {
        String s = Api.newStore();
        Api.put(s, "user", "a", "{\"content\":\"first\"}").then().statusCode(201);
        try (Connection holder = db.getConnection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement("select seq from store where id = ? for update")) {
                lock.setString(1, s);
                lock.executeQuery().close();
            }
            Api.put(s, "user", "b", "{\"content\":\"waits for the lock\"}").then().statusCode(503)
                    .contentType("application/problem+json")
                    .body("type", equalTo("https://engram.dev/problems/unavailable"))
                    .body("detail", containsString("may or may not have landed"))
                    .header("Retry-After", notNullValue());
            holder.rollback();
        }
        Api.json().get("/v1/stores/" + s).then().statusCode(200).body("seq", equalTo(1));
        Api.json().get(Api.entry(s, "user", "b")).then().statusCode(404);
    }
    @Test
    void aReadStuckBehindALockIsAnswered503AsARead() throws Exception {
        String s = Api.newStore();
        Api.put(s, "user", "a", "{\"content\":\"first\"}").then().statusCode(201);
        try (Connection holder = db.getConnection()) {
            holder.setAutoCommit(false);
            try (Statement lock = holder.createStatement()) {
                lock.execute("lock table entry in access exclusive mode");
            }
            Api.json().get("/v1/stores/" + s + "/scopes/user/entries").then().statusCode(503)
                    .contentType("application/problem+json")
                    .body("type", equalTo("https://engram.dev/problems/unavailable"))
                    .body("detail", containsString("read"))
                    .body("detail", not(containsString("may or may not have landed")))
                    .header("Retry-After", notNullValue());
            holder.rollback();
        }
    }

    @Test
    void aSearchPostedStuckBehindALockIsAnswered503AsARead() throws Exception {
        String s = Api.newStore();
        try (Connection holder = db.getConnection()) {
            holder.setAutoCommit(false);
            try (Statement lock = holder.createStatement()) {
                lock.execute("lock table memory in access exclusive mode");
            }
            Api.json().body("{\"query\":\"anything\"}").post("/v1/stores/" + s + "/memories/search").then()
                    .statusCode(503).contentType("application/problem+json")
                    .body("type", equalTo("https://engram.dev/problems/unavailable"))
                    .body("detail", containsString("read"))
                    .body("detail", not(containsString("may or may not have landed")));
            holder.rollback();
        }
    }
}
