package dev.engram.recall;

import java.util.List;

/**
 * A store's memories: typed facts in banks, saved whole, recalled by a ranked search, and changed by the few
 * operations the seed has (access, revision, supersession, archiving). Every change is a record of the store's
 * journal; an access is counted apart, without the store's write lock.
 *
 * <p>Errors: {@link dev.engram.memory.Invalid} for a memory or argument {@link MemoryRules} refuses (nothing is
 * written), {@link dev.engram.memory.NotFound} for an id the store does not hold.
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

    /** The memory {@code id}; {@link dev.engram.memory.NotFound} when there is none. */
    Memory get(String id);

    /** Deletes the memory {@code id} with its history; {@link dev.engram.memory.NotFound} when there is none. */
    void delete(String id);

    /** A page of every memory, newest first (then by id), and the total. */
    MemoryPage list(int limit, int offset);

    /** The bank's memories but archived ones, most important first, then newest. */
    List<Memory> inBank(Bank bank, int limit);

    /** The memories of {@code type} in every bank but archived ones, most important first, then newest. */
    List<Memory> ofType(String type, int limit);

    /** The memories the query finds, best first; none when the query has no tokens. Not an access. */
    List<Scored> search(SearchOptions options);

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
}
