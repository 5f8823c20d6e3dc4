package dev.engram.memories.persistence;

import dev.engram.persistence.KeySeen;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.memories.Memory;
import dev.engram.memories.MemoryRules;
import dev.engram.memories.Saved;
import dev.engram.persistence.Sql;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A store's saves, one or a batch, each a call of {@code engram_memory_save} that writes the memory and appends its
 * journal record; under an idempotency key, made at most once, a retry answered {@link Saved.Replayed}.
 */
interface MemorySaves extends MemoryReads {

    /**
     * Saves that read without a lock before one that reads under the store's lock, which no other change of the
     * store can come between (but the store's very first writes, which create its row).
     */
    int OPTIMISTIC = 2;
    /** How many times a save that lost a race with another change of its memory reads and tries again. */
    int ATTEMPTS = 10;
    /** What a key's reply says of a batch: this, then how many memories it saved from the key's seq on. */
    String BATCH_REPLY = "memories.batch:";
    String RECORDS = "select record::text from journal where store_id = ? and seq >= ? and seq < ? order by seq";

    /** A memory as one save stored it, and the seq of its record (0 for a replay, which appended none). */
    record Stored(Memory memory, long seq) {
    }

    @Override
    default Memory save(Memory memory) {
        return save(memory, Optional.empty()).value();
    }

    @Override
    default Saved<Memory> save(Memory memory, IdempotencyKey key) {
        return save(memory, Optional.of(key));
    }

    @Override
    default List<Memory> saveAll(List<Memory> batch) {
        return saveAll(batch, Optional.empty()).value();
    }

    @Override
    default Saved<List<Memory>> saveAll(List<Memory> batch, IdempotencyKey key) {
        return saveAll(batch, Optional.of(key));
    }

    /**
     * A save: one statement in autocommit, or, under a key or after {@link #OPTIMISTIC} lost races, a transaction
     * that first takes the key's lock (answering the first save under it) or the store's lock.
     */
    private Saved<Memory> save(Memory memory, Optional<IdempotencyKey> key) {
        Instant now = now();
        Memory m = inMicros(memory.saved(now));
        MemoryRules.check(m, now);
        return retried(attempt -> {
            boolean fresh = memory.id().isEmpty() && attempt == 1;
            if (key.isEmpty() && attempt <= OPTIMISTIC) {
                Stored once = sql().connected(tx -> saveOnce(tx, m, now, fresh));
                return new Saved.Landed<>(List.of(once));
            }
            return sql().transaction(tx -> {
                Optional<KeySeen> seen = key.isEmpty() ? Optional.empty() : KeySeen.lock(tx, store(), key.get());
                if (seen.isPresent()) {
                    tx.rollbackOnly();
                    // A statement of its own: one that began before the key's lock was granted would not see the
                    // record that the save holding the lock committed meanwhile.
                    return new Saved.Replayed<>(List.of(new Stored(first(tx, seen.get(), 1).get(0), 0)),
                            seen.get().reply());
                }
                if (attempt > OPTIMISTIC) {
                    lockStore(tx);
                }
                Stored saved = saveOnce(tx, m, now, fresh);
                if (key.isPresent()) {
                    remember(tx, key.get(), saved.seq(), key.get().reply());
                }
                return new Saved.Landed<>(List.of(saved));
            });
        }, key).map(all -> all.get(0));
    }

    /**
     * A batch: one transaction that takes the key's lock (answering the first batch under it), then the store's lock,
     * then saves each memory as {@link #saveOnce} does, each its journal record, their seqs consecutive (no other
     * change of the store comes between); a refusal of any rolls back all. The key records the first seq and, as its
     * reply, how many memories the batch saved, which is what a retry reads back.
     */
    private Saved<List<Memory>> saveAll(List<Memory> batch, Optional<IdempotencyKey> key) {
        Instant now = now();
        List<Memory> filled = MemoryRules.checkBatch(batch, now).stream().map(MemorySaves::inMicros).toList();
        return retried(attempt -> sql().transaction(tx -> {
            Optional<KeySeen> seen = key.isEmpty() ? Optional.empty() : KeySeen.lock(tx, store(), key.get());
            if (seen.isPresent()) {
                tx.rollbackOnly();
                String reply = seen.get().reply();
                int n = reply.startsWith(BATCH_REPLY) ? Integer.parseInt(reply.substring(BATCH_REPLY.length())) : 1;
                return new Saved.Replayed<>(first(tx, seen.get(), n).stream().map(m -> new Stored(m, 0)).toList(), "");
            }
            lockStore(tx);
            List<Stored> saved = new ArrayList<>(filled.size());
            for (int i = 0; i < filled.size(); i++) {
                saved.add(saveOnce(tx, filled.get(i), now, batch.get(i).id().isEmpty() && attempt == 1));
            }
            if (key.isPresent()) {
                remember(tx, key.get(), saved.get(0).seq(), BATCH_REPLY + saved.size());
            }
            return new Saved.Landed<>(saved);
        }), key);
    }

    /** One try of a save, numbered from 1. */
    @FunctionalInterface
    interface Attempt {
        Saved<List<Stored>> run(int attempt);
    }

    /**
     * Runs {@code attempt} until it does not lose a race ({@link Raced}), at most {@link #ATTEMPTS} times; a
     * landed save tells the store's followers and its embedder.
     */
    private Saved<List<Memory>> retried(Attempt attempt, Optional<IdempotencyKey> key) {
        for (int n = 1; ; n++) {
            Saved<List<Stored>> done;
            try {
                done = attempt.run(n);
            } catch (Raced raced) {
                if (n >= ATTEMPTS) {
                    throw raced.unavailable();
                }
                continue;
            }
            List<Memory> memories = done.value().stream().map(Stored::memory).toList();
            if (done instanceof Saved.Replayed<List<Stored>> r) {
                return new Saved.Replayed<>(memories, r.reply());
            }
            recalls().appended(store(), done.value().get(done.value().size() - 1).seq());
            recalls().queued();
            return new Saved.Landed<>(memories);
        }
    }

    /**
     * Saves {@code m} with one {@link SaveCall}, after reading what it replaces without a lock (not when
     * {@code fresh}: an id just made names nothing yet): the record is built from that read, and the call refuses
     * (EG409) when the row changed since.
     */
    default Stored saveOnce(Sql.Tx tx, Memory m, Instant now, boolean fresh) throws SQLException {
        Optional<Memory> old = fresh ? Optional.empty() : read(tx, m.id());
        Memory stored = old.map(m::replacing).orElse(m);
        long seq = new SaveCall(store(), recalls().defaultMaxEntryBytes(), recalls().maxMemories(), m,
                old.map(Memory::createdAt).orElse(null), MemoryRecords.json(stored), now).run(tx);
        return new Stored(stored, seq);
    }

    /** Records {@code key} for the write whose (first) record is {@code seq}, with {@code reply} for a retry. */
    private void remember(Sql.Tx tx, IdempotencyKey key, long seq, String reply) throws SQLException {
        tx.update("insert into idempotency (store_id, caller, key, fingerprint, seq, reply) values (?, ?, ?, ?, ?, ?)",
                store(), key.caller(), key.key(), key.fingerprint(), seq, reply);
    }

    /** The {@code n} memories the first write under a key saved, from their journal records (the key's seq on). */
    private List<Memory> first(Sql.Tx tx, KeySeen seen, int n) throws SQLException {
        return tx.list(RECORDS, r -> MemoryRecords.fromJson(r.getString(1)), store(), seen.seq(), seen.seq() + n);
    }

    /** Now, to the microsecond PostgreSQL keeps, so that what a save answers is what a read will. */
    default Instant now() {
        return recalls().clock().instant().truncatedTo(ChronoUnit.MICROS);
    }

    /** {@code m} with its times to the microsecond, as PostgreSQL will keep them. */
    static Memory inMicros(Memory m) {
        return new Memory(m.id(), m.bank(), m.type(), m.content(), m.importance(), m.tags(), m.keywords(),
                m.source(), m.confidence(), m.evidence(), micros(m.validFrom()), micros(m.validTo()),
                m.supersededBy(), m.conflicting(), m.archived(), micros(m.archivedAt()), m.archiveReason(),
                m.accessCount(), micros(m.lastAccessed()), micros(m.createdAt()), micros(m.updatedAt()),
                m.revisions());
    }

    private static Instant micros(Instant t) {
        return t == null ? null : t.truncatedTo(ChronoUnit.MICROS);
    }
}
