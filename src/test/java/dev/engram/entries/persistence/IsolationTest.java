package dev.engram.entries.persistence;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pool pins READ COMMITTED on every connection, so a database whose default is REPEATABLE READ (as a managed
 * PostgreSQL may be configured) changes nothing: concurrent writes to one store all land instead of failing on
 * serialization.
 */
@QuarkusTest
class IsolationTest {

    @Inject
    AgroalDataSource db;

    @AfterEach
    void restore() throws Exception {
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("alter database " + database(s) + " reset default_transaction_isolation");
        }
        db.flush(AgroalDataSource.FlushMode.GRACEFUL);
    }

    @Test
    void aRepeatableReadDefaultOnTheDatabaseChangesNothing() throws Exception {
        String altered;
        try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
            s.execute("alter database " + database(s) + " set default_transaction_isolation = 'repeatable read'");
            try (ResultSet r = s.executeQuery("select clock_timestamp()::text")) {
                r.next();
                altered = r.getString(1);
            }
        }
        assertEquals("read committed", isolationOfANewConnection(altered), "a connection opened after the change");

        String store = "iso-" + UUID.randomUUID().toString().substring(0, 8);
        int writers = 16;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                int n = i;
                statuses.add(pool.submit(() -> {
                    go.await();
                    return given().contentType("application/json").body("{\"content\":\"note " + n + "\"}")
                            .put("/v1/stores/" + store + "/scopes/user/entries/note-" + n).statusCode();
                }));
            }
            go.countDown();
            for (Future<Integer> f : statuses) {
                assertEquals(201, f.get());
            }
        } finally {
            pool.shutdown();
        }
        given().get("/v1/stores/" + store).then().statusCode(200)
                .body("seq", org.hamcrest.Matchers.equalTo(writers))
                .body("entries", org.hamcrest.Matchers.equalTo(writers));
    }

    /**
     * The isolation level a pooled connection opened after {@code since} runs at: the idle connections are flushed
     * (closed by the pool's own thread, soon after), and connections are taken until one is new.
     */
    private String isolationOfANewConnection(String since) throws Exception {
        db.flush(AgroalDataSource.FlushMode.GRACEFUL);
        for (int tries = 0; tries < 500; tries++) {
            try (Connection c = db.getConnection(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                    "select backend_start > '" + since + "'::timestamptz, current_setting('transaction_isolation') "
                            + "from pg_stat_activity where pid = pg_backend_pid()")) {
                r.next();
                if (r.getBoolean(1)) {
                    return r.getString(2);
                }
            }
            Thread.sleep(10);
            db.flush(AgroalDataSource.FlushMode.GRACEFUL);
        }
        throw new AssertionError("the pool never opened a new connection");
    }

    private static String database(Statement s) throws Exception {
        try (ResultSet r = s.executeQuery("select quote_ident(current_database())")) {
            r.next();
            return r.getString(1);
        }
    }
}
