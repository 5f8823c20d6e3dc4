package dev.engram.memories.persistence;

import dev.engram.persistence.Sql;

/**
 * One store's memories in PostgreSQL: {@link dev.engram.memories.Recall} made of one part per concern, each a
 * package-private interface whose methods are that concern's implementation over this store's {@link Sql}: saves
 * ({@link MemorySaves}), reads and pages ({@link MemoryReads}), changes ({@link MemoryChanges}), a reflection's writes
 * ({@link Consolidation}), searches ({@link MemorySearch}), pages by filter and banks counted
 * ({@link FilteredReads}), bank slots ({@link BankSlots}), bank settings and mental models ({@link BankConfigs}).
 * Every change is one transaction that takes the store's next seq first ({@link OneStore#change}); a refused change
 * rolls back whole. Reads and access counts take no lock.
 */
record PgRecall(String store, PgRecalls recalls, Sql sql) implements Consolidation, MemorySearch, FilteredReads,
        BankSlots {

    PgRecall(String store, PgRecalls recalls) {
        this(store, recalls, Raced.sql(recalls.dataSource(), recalls.maxMemories()));
    }
}
