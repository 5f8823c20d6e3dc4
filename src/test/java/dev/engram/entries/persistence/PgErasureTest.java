package dev.engram.entries.persistence;

import dev.engram.entries.ErasureContract;
import dev.engram.entries.Store;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.UUID;

/** The erasure cases over PostgreSQL, each in a store of its own. */
@QuarkusTest
class PgErasureTest extends ErasureContract {

    @Inject
    PgStores stores;

    @Override
    protected Store newStore() {
        String id = "erasure-" + UUID.randomUUID();
        stores.configure(id, 4096);
        return stores.store(id);
    }
}
