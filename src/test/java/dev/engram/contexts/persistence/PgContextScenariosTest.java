package dev.engram.contexts.persistence;

import dev.engram.contexts.ScenarioContract;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The SPEC's scenarios on contexts kept in PostgreSQL: after every change the configuration and state are written
 * through {@link PgContexts} (one transaction and journal record, as a REST change makes) and read back, and the
 * next operation works on the context restored from what was read, so a field the table or its JSON forgets fails a
 * scenario.
 */
@QuarkusTest
class PgContextScenariosTest extends ScenarioContract {

    private static final AtomicInteger CONTEXTS = new AtomicInteger();

    @Inject
    PgContexts contexts;

    private final String store = "scenarios-" + UUID.randomUUID().toString().substring(0, 8);

    @Override
    protected Keeper newKeeper() {
        String id = "s-" + CONTEXTS.incrementAndGet();
        return (context, reopen) -> {
            PgContexts.Held written = new PgContexts.Held(context.config(), context.state());
            contexts.change(store, id, (current, cache) -> new PgContexts.Edited<>(written, "context.kept_by_test",
                    Map.of(), null));
            PgContexts.Held read = contexts.get(store, id);
            return reopen.open(read.config(), read.state());
        };
    }
}
