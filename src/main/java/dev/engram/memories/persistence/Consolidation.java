package dev.engram.memories.persistence;

import dev.engram.kernel.NotFound;
import dev.engram.memories.Memory;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.Reflection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A reflection's writes landed at once under the store's lock: each observation saved as a save is, and the memory it
 * replaces superseded, each its journal record; nothing when the bank changed since the reflection read it.
 */
final class Consolidation {

    private final String store;
    private final PgRecalls recalls;
    private final Sql sql;
    private final MemoryReads reads;
    private final MemorySaves saves;
    private final MemoryChanges changes;
    private final Journaled journal;

    Consolidation(String store, PgRecalls recalls, Sql sql, MemoryReads reads, MemorySaves saves,
            MemoryChanges changes, Journaled journal) {
        this.store = store;
        this.recalls = recalls;
        this.sql = sql;
        this.reads = reads;
        this.saves = saves;
        this.changes = changes;
        this.journal = journal;
    }

    List<Memory> consolidate(Reflection.Basis seen, List<Reflection.Planned> plan) {
        List<Memory> saved = new ArrayList<>();
        long[] seq = {0};
        try {
            sql.transaction(tx -> {
                journal.lockStore(tx);
                Optional<String> changed = seen.changedIn(reads.active(tx, seen.bank()), plan);
                if (changed.isPresent()) {
                    throw Reflection.bankChanged(changed.get());
                }
                Instant now = saves.now();
                for (Reflection.Planned p : plan) {
                    Memory m = MemorySaves.inMicros(p.memory().saved(now));
                    MemoryRules.check(m, now);
                    MemorySaves.Stored observation = saves.saveOnce(tx, m, now, true);
                    seq[0] = observation.seq();
                    saved.add(observation.memory());
                    if (!p.supersedes().isEmpty()) {
                        seq[0] = journal.nextSeq(tx);
                        Memory old = reads.read(tx, p.supersedes()).orElseThrow(() -> NotFound.memory(p.supersedes()));
                        Memory stale = changes.rewrite(tx, old.superseded(m.id(), now));
                        journal.append(tx, seq[0], "memory.superseded", stale.id(), MemoryRecords.json(stale));
                    }
                }
                return saved;
            });
        } catch (Sql.Raced raced) {
            throw raced.unavailable();
        }
        recalls.appended(store, seq[0]);
        recalls.queued();
        return saved;
    }
}
