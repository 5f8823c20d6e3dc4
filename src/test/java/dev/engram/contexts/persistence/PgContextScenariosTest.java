package dev.engram.contexts.persistence;

import dev.engram.contexts.ContextStore;
import dev.engram.contexts.ScenarioContract;
import dev.engram.contexts.StoreKeepers;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.UUID;

/**
 * The SPEC's scenarios on contexts kept in PostgreSQL: after every change the configuration and state are written
 * through the port (the {@link PgContexts} CDI gives, one transaction and journal record, as a REST change makes)
 * and read back, and the next operation works on the context restored from what was read, so a field the table or
 * its JSON forgets fails a scenario.
 */
@QuarkusTest
class PgContextScenariosTest extends ScenarioContract {

    @Inject
    ContextStore contexts;

    private final String store = "scenarios-" + UUID.randomUUID().toString().substring(0, 8);

    @Override
    public Keeper newKeeper() {
        return StoreKeepers.in(contexts, store);
    }
}
