package dev.engram.journal.persistence;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.PartlyShutDown;
import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * A replica that stops tells the others about its last writes before it goes: the stores its writes moved since its
 * last notification are sent at shutdown, not dropped with the notifier (which waits 5 s between notifications in
 * this profile, so only the shutdown can send them in time).
 */
@QuarkusTest
@TestProfile(PartlyShutDown.class)
class JournalSignalsShutdownTest {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    JournalSignals signals;

    @Test
    void theLastWritesAreNotifiedAtShutdown() throws Exception {
        String first = "signal-" + UUID.randomUUID().toString().substring(0, 8);
        String last = "signal-" + UUID.randomUUID().toString().substring(0, 8);
        try (Connection c = dataSource.getConnection()) {
            try (Statement s = c.createStatement()) {
                s.execute("listen " + JournalSignals.CHANNEL);
            }
            PGConnection pg = c.unwrap(PGConnection.class);
            put(first);
            assertTrue(heard(pg, first, 10_000), "the first write is notified at once");
            put(last); // the notifier now waits out its 5 s interval
            signals.stop(new ShutdownEvent());
            assertTrue(heard(pg, last, 10_000), "the last write is notified at shutdown");
        }
    }

    private static void put(String store) {
        given().contentType("application/json").body("{\"content\":\"moved\"}")
                .put("/v1/stores/" + store + "/scopes/user/entries/a").then().statusCode(201);
    }

    private static boolean heard(PGConnection pg, String store, long millis) throws Exception {
        long deadline = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < deadline) {
            PGNotification[] got = pg.getNotifications(200);
            if (got != null) {
                for (PGNotification n : got) {
                    if (java.util.List.of(n.getParameter().split(",")).contains(store)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
