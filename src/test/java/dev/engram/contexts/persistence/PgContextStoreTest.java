package dev.engram.contexts.persistence;

import dev.engram.contexts.ContextStore;
import dev.engram.contexts.ContextStoreContract;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/** The contract of contexts kept in PostgreSQL, through the port the REST and app layers use. */
@QuarkusTest
class PgContextStoreTest extends ContextStoreContract {

    @Inject
    ContextStore contexts;

    @Override
    protected ContextStore contexts() {
        return contexts;
    }

    @Test
    void theStoreCdiGivesThePortIsPostgres() {
        assertInstanceOf(PgContexts.class, contexts);
    }
}
