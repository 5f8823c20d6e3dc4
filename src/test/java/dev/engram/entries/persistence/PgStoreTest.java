package dev.engram.entries.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.engram.entries.Entry;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.Scope;
import dev.engram.entries.SearchOrder;
import dev.engram.entries.Store;
import dev.engram.entries.StoreContract;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The conformance suite over PostgreSQL (the embedded server), each case in a store of its own. */
@QuarkusTest
class PgStoreTest extends StoreContract {

    @Inject
    PgStores stores;

    @Inject
    AgroalDataSource dataSource;

    @Override
    public Store newStore(int maxEntryBytes) {
        String id = "contract-" + UUID.randomUUID();
        stores.configure(id, maxEntryBytes);
        return stores.store(id);
    }

    @Override
    public Store reopen(Store store) {
        stores.forgetCached(store.id());
        return stores.store(store.id());
    }

    /**
     * A store allowed more entries than a search ranks (engram.limits.entries-per-store raised, here rows written
     * past the quota) refuses a search by relevance that matches more, after reading no more than one hit past it.
     */
    @Test
    void aSearchByRelevanceOfMoreHitsThanItRanksIsRefused() throws Exception {
        Store s = newStore();
        try (Connection c = dataSource.getConnection(); PreparedStatement insert = c.prepareStatement("insert into "
                + "entry (store_id, scope, name, content, meta, hash, updated, search_text) select ?, 'user', "
                + "'e' || g, 'the wide', '{}', 'sha256:x', now(), 'e' || g || E'\\nthe wide' "
                + "from generate_series(1, ?) g")) {
            insert.setString(1, s.id());
            insert.setInt(2, SearchOrder.MAX_RANKED + 1);
            insert.executeUpdate();
        }
        Invalid broad = assertThrows(Invalid.class,
                () -> s.searchPage(List.of(), "wide", SearchOrder.RELEVANCE, 0, 5, 1 << 20));
        assertEquals("search-too-broad", broad.rule());
        assertEquals(5, s.searchPage(List.of(new Scope("user")), "wide", SearchOrder.NAME, 0, 5, 1 << 20).items()
                .size());
        assertEquals(5, s.searchPage(List.of(), "", SearchOrder.RELEVANCE, 0, 5, 1 << 20).items().size(),
                "a query of no term lists by name, whatever it matches");
        assertEquals(List.of("e1", "e10", "e100"), s.searchPage(List.of(), "the", SearchOrder.RELEVANCE, 0, 3,
                1 << 20).items().stream().map(Entry::name).toList(), "nor does one of stop words");
    }
}
