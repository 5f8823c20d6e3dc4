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
interface Consolidation extends MemorySaves, MemoryChanges {

    @Override
    default List<Memory> consolidate(Reflection.Basis seen, List<Reflection.Planned> plan) {
        List<Memory> saved = new ArrayList<>();
        long[] seq = {0};
        try {
            sql().transaction(tx -> {
                lockStore(tx);
                Optional<String> changed = seen.changedIn(active(tx, seen.bank()), plan);
                if (changed.isPresent()) {
                    throw Reflection.bankChanged(changed.get());
                }
                Instant now = now();
                for (Reflection.Planned p : plan) {
                    Memory m = MemorySaves.inMicros(p.memory().saved(now));
                    MemoryRules.check(m, now);
                    MemorySaves.Stored observation = saveOnce(tx, m, now, true);
                    seq[0] = observation.seq();
                    saved.add(observation.memory());
                    if (!p.supersedes().isEmpty()) {
                        seq[0] = nextSeq(tx);
                        Memory old = read(tx, p.supersedes()).orElseThrow(() -> NotFound.memory(p.supersedes()));
                        Memory stale = rewrite(tx, old.superseded(m.id(), now));
                        append(tx, seq[0], "memory.superseded", stale.id(), MemoryRecords.json(stale));
                    }
                }
                return saved;
            });
        } catch (Raced raced) {
            throw raced.unavailable();
        }
        recalls().appended(store(), seq[0]);
        recalls().queued();
        return saved;
    }
}
