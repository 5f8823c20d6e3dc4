package dev.engram.entries.persistence;

import dev.engram.entries.IdempotencyContract;
import dev.engram.entries.Store;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.UUID;

/** The idempotency cases over PostgreSQL, each in a store of its own. */
@QuarkusTest
class PgIdempotencyTest extends IdempotencyContract {

    @Inject
    PgStores stores;

    @Override
    protected Store newStore(int maxEntryBytes) {
        String id = "keys-" + UUID.randomUUID();
        stores.configure(id, maxEntryBytes);
        return stores.store(id);
    }

    @Override
    protected Store reopen(Store store) {
        stores.forgetCached(store.id());
        return stores.store(store.id());
    }
}
