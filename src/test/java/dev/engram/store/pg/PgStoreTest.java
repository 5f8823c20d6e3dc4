package dev.engram.store.pg;

import dev.engram.memory.Store;
import dev.engram.memory.StoreContract;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.UUID;

/** The conformance suite over PostgreSQL (the embedded server), each case in a store of its own. */
@QuarkusTest
class PgStoreTest extends StoreContract {

    @Inject
    PgStores stores;

    @Override
    protected Store newStore(int maxEntryBytes) {
        String id = "contract-" + UUID.randomUUID();
        stores.configure(id, maxEntryBytes);
        return stores.store(id);
    }

    @Override
    protected Store reopen(Store store) {
        stores.forgetCached(store.id());
        return stores.store(store.id());
    }
}
