package dev.engram.entries.persistence;

import static dev.engram.entries.persistence.SessionCalls.args;

import dev.engram.entries.Change;
import dev.engram.entries.Erasure;
import dev.engram.journal.persistence.JournalEntity;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Scope;
import dev.engram.persistence.StoreUnavailable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Erasure: one call of {@code engram_erase} (migration V5), in one transaction under the store's row lock. */
@ApplicationScoped
class PgErasure {

    private static final String ERASE = "select e.* from engram_erase(:store, :scope, :name, :by, :reason) e";

    @Inject
    SessionCalls calls;

    @Inject
    PgWrites writes;

    /** Erases {@code scope/name} of {@code store}, and returns the erasure record. */
    Change erase(String store, Scope scope, String name, Erasure erasure) {
        JournalEntity record = calls.records(ERASE, args("store", store, "scope", scope.value(),
                "name", name, "by", erasure.by(), "reason", erasure.reason()),
                e -> "EG404".equals(e.getSQLState()) ? NotFound.neverHeld(scope, name) : new StoreUnavailable(e))
                .get(0);
        Change change = record.change();
        writes.committed(store, change.seq());
        return change;
    }
}
