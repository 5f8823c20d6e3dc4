package dev.engram.entries;

import dev.engram.kernel.Invalid;
import static dev.engram.entries.StoreCases.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The conformance suite over the in-memory store. */
class InMemoryStoreTest extends StoreContract {

    @Override
    public Store newStore(int maxEntryBytes) {
        return new InMemoryStore("test", maxEntryBytes);
    }

    @Override
    public Store reopen(Store store) {
        return null;
    }

    /** A store of no entry quota can match more than a search ranks (PostgreSQL's store: PgStoreTest). */
    @Test
    void aSearchByRelevanceOfMoreHitsThanItRanksIsRefused() {
        Store s = newStore();
        for (int i = 0; i <= SearchOrder.MAX_RANKED; i++) {
            s.put(entry(USER, "e" + i, "the wide"), PutOptions.NONE);
        }
        Invalid broad = assertThrows(Invalid.class,
                () -> s.searchPage(List.of(), "wide", SearchOrder.RELEVANCE, 0, 5, 1 << 20));
        assertEquals("search-too-broad", broad.rule());
        assertEquals(5, s.searchPage(List.of(), "wide", SearchOrder.NAME, 0, 5, 1 << 20).items().size());
        assertEquals(5, s.searchPage(List.of(), "", SearchOrder.RELEVANCE, 0, 5, 1 << 20).items().size(),
                "a query of no term lists by name, whatever it matches");
        assertEquals(List.of("e0", "e1", "e10"), s.searchPage(List.of(), "the", SearchOrder.RELEVANCE, 0, 3, 1 << 20)
                .items().stream().map(Entry::name).toList(), "nor does one of stop words, which no entry's terms hold");
    }
}
