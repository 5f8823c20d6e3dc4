package dev.engram.entries.persistence;

import static dev.engram.entries.persistence.SessionCalls.args;

import dev.engram.entries.Entry;
import dev.engram.journal.persistence.JournalEntity;
import dev.engram.kernel.JournalRecord;
import dev.engram.kernel.Scope;
import dev.engram.persistence.StoreUnavailable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The store's lists and journal pages, as Panache queries on the entities, outside any transaction. Native SQL only
 * for the byte-bounded page, whose running sum of sizes PostgreSQL computes; the point read of an entry and the
 * render's and the search's bulk reads are {@link PgEntryQueries} (docs/adr/0010-the-point-read-over-jdbc.md).
 * Rows are written by the SQL write functions; nothing caches a row.
 */
@ApplicationScoped
class PgReads {

    /** The byte-bounded page: the records whose sizes before them sum to at most the bound, and the one after. */
    private static final String BOUNDED_JOURNAL = "select j.* from (select j.*, "
            + "coalesce(sum(case when j.kind = '" + JournalEntity.ENTRY + "' "
            + "then coalesce(octet_length(j.content), 0) else coalesce(octet_length(cast(j.record as text)), 0) end) "
            + "over (order by j.seq rows between unbounded preceding and 1 preceding), 0) as bytes_before, "
            + "row_number() over (order by j.seq) as position "
            + "from journal j where j.store_id = :store and j.seq > :after order by j.seq limit :limit) j "
            + "where j.bytes_before <= :maxBytes or j.position <= 2 order by j.seq";

    @Inject
    SessionCalls calls;

    List<Entry> list(String store, Scope scope) {
        return entries(() -> EntryEntity.inScope(store, scope));
    }

    /** Up to {@code limit} live entries of {@code scope} named after {@code after}, by name. */
    List<Entry> page(String store, Scope scope, String after, int limit) {
        return entries(() -> EntryEntity.page(store, scope, after, limit));
    }

    /** The live entries of {@code scopes} (every scope when empty), by scope then name. */
    List<Entry> inScopes(String store, List<Scope> scopes) {
        return entries(() -> EntryEntity.inScopes(store, scopes));
    }

    /**
     * Up to {@code limit} records after {@code after}, in seq order, none of them starting past {@code maxBytes} of
     * the records before it ({@link JournalRecord#bytes}, summed in PostgreSQL): the byte-bounded page and the record
     * after it, never the rest.
     */
    List<JournalRecord> journal(String store, long after, int limit, long maxBytes) {
        return calls.records(BOUNDED_JOURNAL, args("store", store, "after", after, "limit",
                limit, "maxBytes", maxBytes), StoreUnavailable::new).stream().map(JournalEntity::record).toList();
    }

    /** Up to {@code limit} records after {@code after}, in seq order. */
    List<JournalRecord> journal(String store, long after, int limit) {
        return calls.read(() -> JournalEntity.after(store, after, limit).stream().map(JournalEntity::record)
                .toList());
    }

    /** The row of store {@code id}, detached. */
    Optional<StoreEntity> store(String id) {
        return calls.read(() -> StoreEntity.<StoreEntity>findByIdOptional(id));
    }

    /** Live entries by scope. */
    Map<Scope, Integer> counts(String store) {
        return calls.read(() -> {
            Map<Scope, Integer> counts = new HashMap<>();
            EntryEntity.getSession().createSelectionQuery("select e.scope, count(*) from EntryEntity e "
                    + "where e.storeId = :store group by e.scope", Object[].class).setParameter("store", store)
                    .getResultList().forEach(r -> counts.put(new Scope((String) r[0]), ((Number) r[1]).intValue()));
            return counts;
        });
    }

    private List<Entry> entries(Supplier<List<EntryEntity>> rows) {
        return calls.read(() -> rows.get().stream().map(EntryEntity::toEntry).toList());
    }
}
