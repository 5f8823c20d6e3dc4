package dev.engram.memories;

import dev.engram.kernel.Paged;
import java.util.List;

/**
 * A store's memories: typed facts in banks, saved whole, recalled by a ranked search, and changed by the few
 * operations the seed has (access, revision, supersession, archiving). Every change is a record of the store's
 * journal; an access is counted apart, without the store's write lock.
 *
 * <p>Errors: {@link dev.engram.kernel.Invalid} for a memory or argument {@link MemoryRules} refuses (nothing is
 * written), {@link dev.engram.kernel.NotFound} for an id the store does not hold.
 */
public interface Recall {

    /** How many memories a list gives when no positive limit is asked for. */
    int DEFAULT_LIMIT = 50;
    /** The most memories a list gives. */
    int MAX_LIMIT = 1000;

    /**
     * Saves {@code memory} whole, as {@link Memory#saved} fills it, replacing a memory of the same id but for its
     * creation time and access count, and answers it as stored.
     */
    Memory save(Memory memory);

    /**
     * As {@link #save}, made at most once under {@code key}: {@link Saved.Landed} the first time; a retry with the same
     * key and request writes nothing and is {@link Saved.Replayed} with the first answer and the key's reply; the same
     * key with another request is {@link dev.engram.kernel.KeyReused}. A refused save records no key.
     */
    Saved<Memory> save(Memory memory, dev.engram.kernel.IdempotencyKey key);

    /**
     * Saves every memory of {@code batch} as {@link #save} does, in order and in one step: all of them, or, when one
     * is refused ({@link MemoryRules#checkBatch}) or the store's quota is reached, none. Each save is a record of the
     * journal, as a single save's is. Answers the memories as stored, in order.
     */
    List<Memory> saveAll(List<Memory> batch);

    /**
     * As {@link #saveAll(List)}, made at most once under {@code key}: {@link Saved.Landed} the first time; a retry with
     * the same key and request writes nothing and is {@link Saved.Replayed} with the first answer; the same key with
     * another request is {@link dev.engram.kernel.KeyReused}. A refused batch records no key.
     */
    Saved<List<Memory>> saveAll(List<Memory> batch, dev.engram.kernel.IdempotencyKey key);

    /** The memory {@code id}; {@link dev.engram.kernel.NotFound} when there is none. */
    Memory get(String id);

    /** Deletes the memory {@code id} with its history; {@link dev.engram.kernel.NotFound} when there is none. */
    void delete(String id);

    /** A page of every memory, newest first (then by id), and the total. */
    MemoryPage list(int limit, int offset);

    /**
     * As {@link #list(int, int)}, ending before the memory whose {@link Memory#bytes} would take the page over
     * {@code maxBytes} (the first is always in it), {@code truncated} then. A store may read no more than the page
     * and the memory after it.
     */
    default MemoryPage list(int limit, int offset, long maxBytes) {
        MemoryPage all = list(limit, offset);
        Paged<Memory> page = Paged.of(all.memories(), all.memories().size(), maxBytes, Memory::bytes);
        return new MemoryPage(page.items(), all.total(), page.more());
    }

    /**
     * A page of the memories {@code filter} admits, in its order ({@link MemoryFilter#order}), starting after
     * {@code after} (null: from the first): at most {@code limit} ({@link #DEFAULT_LIMIT} when not positive, at most
     * {@link #MAX_LIMIT}), ending before the memory whose {@link Memory#bytes} would take the page over
     * {@code maxBytes} (the first is always in it); {@code more} when memories follow. A store reads no more than the
     * page and the memory after it.
     */
    Paged<Memory> page(MemoryFilter filter, MemoryFilter.After after, int limit, long maxBytes);

    /**
     * The store's banks by bank id (in UTF-8 byte order), those after {@code after} ("" from the first), at most
     * {@code limit}: each bank that holds a memory, a context slot or settings, with its memories counted.
     */
    List<BankSummary> banks(String after, int limit);

    /** The bank's memories but archived ones, most important first, then newest. */
    List<Memory> inBank(Bank bank, int limit);

    /**
     * As {@link #inBank(Bank, int)}, bounded as {@link #list(int, int, long)} is: {@code more} says that the bound,
     * not the limit or the bank, ended the list.
     */
    default Paged<Memory> inBank(Bank bank, int limit, long maxBytes) {
        List<Memory> all = inBank(bank, limit);
        return Paged.of(all, all.size(), maxBytes, Memory::bytes);
    }

    /**
     * The bank's {@code n} most important memories (then newest), archived and stale ones left out unless included:
     * what its entrypoint shows.
     */
    List<Memory> top(Bank bank, int n, boolean includeArchived, boolean includeStale);

    /** The memories of {@code type} in every bank but archived ones, most important first, then newest. */
    List<Memory> ofType(String type, int limit);

    /** As {@link #ofType(String, int)}, bounded as {@link #inBank(Bank, int, long)} is. */
    default Paged<Memory> ofType(String type, int limit, long maxBytes) {
        List<Memory> all = ofType(type, limit);
        return Paged.of(all, all.size(), maxBytes, Memory::bytes);
    }

    /** The memories the query finds, best first; none when the query has no tokens. Not an access. */
    List<Scored> search(SearchOptions options);

    /**
     * As {@link #search(SearchOptions)}, the results ending before the memory that would take their
     * {@link Memory#bytes} over {@code maxBytes} (the best is always in it): {@code more} then.
     */
    default Paged<Scored> search(SearchOptions options, long maxBytes) {
        List<Scored> found = search(options);
        return Paged.of(found, found.size(), maxBytes, s -> s.memory().bytes());
    }

    /** How far the store's memories are embedded for semantic ranking. */
    EmbeddingStatus embeddingStatus();

    /** Deletes every memory of the store; banks' configurations, slots and mental models stay. */
    long clear();

    /** Counts one use of the memory: its access count and last access. */
    Memory access(String id);

    /** Appends a line to the memory's revision history. */
    Memory revise(String id, String by, String summary);

    /** Marks it superseded by {@code by} (which may be ""), valid until now, with a revision by {@code reflect}. */
    Memory supersede(String id, String by);

    /** Archives it with {@code reason}, with a revision by {@code archive}. */
    Memory archive(String id, String reason);

    /** Clears its archiving. */
    Memory unarchive(String id);

    /** The bank's active memories (neither archived nor stale) of type fact or observation, oldest first. */
    List<Memory> active(Bank bank);

    /**
     * Lands a reflection's {@code plan} at once: saves each observation and supersedes the one it replaces, each a
     * record of the journal; or, when {@code seen} no longer holds under the store's write lock, writes nothing and
     * throws {@link dev.engram.kernel.ReflectionFailed} ({@code BANK_CHANGED}). Answers the saved observations.
     */
    List<Memory> consolidate(Reflection.Basis seen, List<Reflection.Planned> plan);

    /** Sets a bank's context slot to {@code text} ("" is a value); a slot is any name of 1 to 64 letters. */
    void setSlot(Bank bank, String slot, String text);

    /** The bank's slot; empty when it was never set (a slot set to "" is present). */
    java.util.Optional<String> slot(Bank bank, String slot);

    /** Appends {@code text} to the slot on a new line ({@link ContextSlots#append}) and answers the whole. */
    String appendSlot(Bank bank, String slot, String text);

    /** Deletes the slot; deleting one never set does nothing and writes nothing. */
    void deleteSlot(Bank bank, String slot);

    /** Every slot the bank has set. */
    java.util.Map<String, String> slots(Bank bank);

    /** The bank's slots by name, those after {@code after} ("" from the first), at most {@code limit}. */
    default java.util.SortedMap<String, String> slots(Bank bank, String after, int limit) {
        java.util.SortedMap<String, String> all = new java.util.TreeMap<>(slots(bank)).tailMap(after + "\0");
        java.util.SortedMap<String, String> page = new java.util.TreeMap<>();
        all.entrySet().stream().limit(Math.max(0, limit)).forEach(e -> page.put(e.getKey(), e.getValue()));
        return page;
    }

    /** Sets the bank's settings whole. */
    BankSettings configure(Bank bank, BankSettings settings);

    /** The bank's settings; {@link dev.engram.kernel.NotFound} when it was never configured. */
    BankSettings settings(Bank bank);

    /** Saves a mental model whole under its id, updated now. */
    MentalModel saveModel(MentalModel model);

    /** The mental model {@code id}; {@link dev.engram.kernel.NotFound} when there is none. */
    MentalModel model(String id);

    /** The store's mental models, most recently updated first. */
    java.util.List<MentalModel> models();

    /** Deletes the mental model; deleting one that does not exist does nothing and writes nothing. */
    void deleteModel(String id);
}
