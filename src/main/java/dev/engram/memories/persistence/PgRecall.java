package dev.engram.memories.persistence;

import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.Paged;
import dev.engram.memories.Bank;
import dev.engram.memories.BankSettings;
import dev.engram.memories.EmbeddingStatus;
import dev.engram.memories.Memory;
import dev.engram.memories.MemoryPage;
import dev.engram.memories.MentalModel;
import dev.engram.memories.Recall;
import dev.engram.memories.Reflection;
import dev.engram.memories.Saved;
import dev.engram.memories.Scored;
import dev.engram.memories.SearchOptions;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One store's memories in PostgreSQL, each concern in a class of its own: saves ({@link MemorySaves}), reads
 * ({@link MemoryReads}), changes ({@link MemoryChanges}), a reflection's writes ({@link Consolidation}), searches
 * ({@link MemorySearch}), bank slots ({@link BankSlots}), settings and mental models ({@link BankConfigs}). Every
 * change is one transaction that takes the store's next seq first ({@link Journaled}); a refused change rolls back
 * whole. Reads and access counts take no lock.
 */
final class PgRecall implements Recall {

    private final MemorySaves saves;
    private final MemoryReads reads;
    private final MemoryChanges changes;
    private final Consolidation consolidation;
    private final MemorySearch search;
    private final BankSlots slots;
    private final BankConfigs banks;

    PgRecall(String store, PgRecalls recalls) {
        Sql sql = new Sql(recalls.dataSource(), recalls.maxMemories());
        Journaled journal = new Journaled(store, recalls, sql);
        reads = new MemoryReads(store, sql);
        saves = new MemorySaves(store, recalls, sql, reads, journal);
        changes = new MemoryChanges(store, recalls, sql, reads, journal);
        consolidation = new Consolidation(store, recalls, sql, reads, saves, changes, journal);
        slots = new BankSlots(store, sql, journal);
        banks = new BankConfigs(store, recalls, sql, journal);
        search = new MemorySearch(store, recalls, sql, reads, banks);
    }

    @Override
    public Memory save(Memory memory) {
        return saves.save(memory, Optional.empty()).value();
    }

    @Override
    public Saved<Memory> save(Memory memory, IdempotencyKey key) {
        return saves.save(memory, Optional.of(key));
    }

    @Override
    public List<Memory> saveAll(List<Memory> batch) {
        return saves.saveAll(batch, Optional.empty()).value();
    }

    @Override
    public Saved<List<Memory>> saveAll(List<Memory> batch, IdempotencyKey key) {
        return saves.saveAll(batch, Optional.of(key));
    }

    @Override
    public Memory get(String id) {
        return reads.get(id);
    }

    @Override
    public void delete(String id) {
        changes.delete(id);
    }

    @Override
    public MemoryPage list(int limit, int offset) {
        return reads.list(limit, offset);
    }

    @Override
    public MemoryPage list(int limit, int offset, long maxBytes) {
        return reads.list(limit, offset, maxBytes);
    }

    @Override
    public Paged<Memory> inBank(Bank bank, int limit, long maxBytes) {
        return reads.inBank(bank, limit, maxBytes);
    }

    @Override
    public Paged<Memory> ofType(String type, int limit, long maxBytes) {
        return reads.ofType(type, limit, maxBytes);
    }

    @Override
    public List<Memory> inBank(Bank bank, int limit) {
        return reads.inBank(bank, limit);
    }

    @Override
    public List<Memory> top(Bank bank, int n, boolean includeArchived, boolean includeStale) {
        return reads.top(bank, n, includeArchived, includeStale);
    }

    @Override
    public List<Memory> ofType(String type, int limit) {
        return reads.ofType(type, limit);
    }

    @Override
    public List<Scored> search(SearchOptions options) {
        return search.search(options);
    }

    @Override
    public EmbeddingStatus embeddingStatus() {
        return search.embeddingStatus();
    }

    @Override
    public long clear() {
        return changes.clear();
    }

    @Override
    public Memory access(String id) {
        return changes.access(id);
    }

    @Override
    public Memory revise(String id, String by, String summary) {
        return changes.revise(id, by, summary);
    }

    @Override
    public Memory supersede(String id, String by) {
        return changes.supersede(id, by);
    }

    @Override
    public Memory archive(String id, String reason) {
        return changes.archive(id, reason);
    }

    @Override
    public Memory unarchive(String id) {
        return changes.unarchive(id);
    }

    @Override
    public List<Memory> active(Bank bank) {
        return reads.active(bank);
    }

    @Override
    public List<Memory> consolidate(Reflection.Basis seen, List<Reflection.Planned> plan) {
        return consolidation.consolidate(seen, plan);
    }

    @Override
    public void setSlot(Bank bank, String slot, String text) {
        slots.set(bank, slot, text);
    }

    @Override
    public Optional<String> slot(Bank bank, String slot) {
        return slots.get(bank, slot);
    }

    @Override
    public String appendSlot(Bank bank, String slot, String text) {
        return slots.append(bank, slot, text);
    }

    @Override
    public void deleteSlot(Bank bank, String slot) {
        slots.delete(bank, slot);
    }

    @Override
    public Map<String, String> slots(Bank bank) {
        return slots.all(bank);
    }

    @Override
    public BankSettings configure(Bank bank, BankSettings settings) {
        return banks.configure(bank, settings);
    }

    @Override
    public BankSettings settings(Bank bank) {
        return banks.settings(bank);
    }

    @Override
    public MentalModel saveModel(MentalModel model) {
        return banks.saveModel(model);
    }

    @Override
    public MentalModel model(String id) {
        return banks.model(id);
    }

    @Override
    public List<MentalModel> models() {
        return banks.models(null);
    }

    @Override
    public void deleteModel(String id) {
        banks.deleteModel(id);
    }
}
