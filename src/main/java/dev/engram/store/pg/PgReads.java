package dev.engram.store.pg;

import dev.engram.memory.Change;
import dev.engram.memory.Entry;
import dev.engram.memory.Scope;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.panache.common.Page;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The store's point reads and journal pages, through the Panache entities; each is one query outside any
 * transaction. The bulk reads of the render and search are {@link PgEntryQueries}. Rows are written
 * by the SQL write functions, never through Hibernate, so no read may answer from the session's cache of rows an
 * earlier read loaded: each read clears the session when it is done (see {@link #fresh}).
 */
@ApplicationScoped
@ActivateRequestContext
class PgReads {

    private static <T> T fresh(Supplier<T> read) {
        try {
            return read.get();
        } finally {
            Panache.getEntityManager().clear();
        }
    }

    Optional<Entry> get(String store, Scope scope, String name) {
        return fresh(() -> EntryRow.<EntryRow>find("storeId = ?1 and scope = ?2 and name = ?3", store,
                scope.value(), name).firstResultOptional().map(EntryRow::toEntry));
    }

    List<Entry> list(String store, Scope scope) {
        return fresh(() -> EntryRow.<EntryRow>list("storeId = ?1 and scope = ?2 order by name", store,
                scope.value()).stream().map(EntryRow::toEntry).toList());
    }

    List<Change> journal(String store, long after, int limit) {
        return fresh(() -> JournalRow.<JournalRow>find("storeId = ?1 and seq > ?2 order by seq", store, after)
                .page(Page.ofSize(limit)).list().stream().map(JournalRow::toChange).toList());
    }

    Optional<StoreRow> store(String id) {
        return fresh(() -> StoreRow.<StoreRow>findByIdOptional(id));
    }

    /** Live entries by scope. */
    List<Object[]> counts(String store) {
        return Panache.getEntityManager()
                .createQuery("select scope, count(*) from EntryRow where storeId = ?1 group by scope", Object[].class)
                .setParameter(1, store).getResultList();
    }
}
