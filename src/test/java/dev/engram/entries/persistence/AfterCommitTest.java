package dev.engram.entries.persistence;

import dev.engram.journal.persistence.JournalAppended;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A write that committed is answered as landed even when what runs after the commit fails, as the follower wake-up
 * does while the service shuts down: the client must not retry a write that is already in the journal.
 */
@QuarkusTest
class AfterCommitTest {

    /** An observer of committed writes that fails while {@link #failing} is set, as a stopped executor would. */
    @ApplicationScoped
    static class FailingObserver {
        static volatile boolean failing;

        void onAppended(@Observes JournalAppended appended) {
            if (failing) {
                throw new java.util.concurrent.RejectedExecutionException("the follower pool is shut down");
            }
        }
    }

    @AfterEach
    void stopFailing() {
        FailingObserver.failing = false;
    }

    @Test
    void aFailureAfterTheCommitDoesNotTurnALandedWriteIntoAnError() {
        String store = "commit-" + UUID.randomUUID().toString().substring(0, 8);
        String entry = "/v1/stores/" + store + "/scopes/user/entries/a";
        FailingObserver.failing = true;
        given().contentType("application/json").body("{\"content\":\"one\"}").put(entry).then().statusCode(201)
                .body("seq", equalTo(1));
        given().contentType("application/json").body("{\"old_text\":\"one\",\"new_text\":\"two\"}").patch(entry)
                .then().statusCode(200).body("seq", equalTo(2));
        given().delete(entry).then().statusCode(200).body("seq", equalTo(3));
        FailingObserver.failing = false;
        given().get("/v1/stores/" + store + "/journal").then().statusCode(200).body("records.size()", equalTo(3));
    }
}
