package dev.engram.documents.stores;

import dev.engram.documents.Actor;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Stores as the Memory Stores API sees them (their profiles), and their memories' versions. Every change is one
 * write of one transaction with its journal record, carrying who made it; a change that changes nothing appends
 * none. The caller checks what {@link ProfileRules} checks before calling.
 */
public interface MemoryStores {

    /** Store {@code store}'s profile ({@link StoreProfile#bare} when it was never given one), or empty: no store. */
    Optional<StoreProfile> profile(String store);

    /**
     * Up to {@code n} stores that {@code query} holds, newest first, after position {@code after} (null: from the
     * newest): a position is what {@link #position} answers for a profile.
     */
    List<StoreProfile> stores(StoreQuery query, String after, int n);

    /** The position of {@code profile} in the listing of stores. */
    String position(StoreProfile profile);

    /** Creates store {@code store} with its profile; {@code Invalid} when the store exists. */
    StoreProfile create(String store, String name, String description, Map<String, String> metadata, Actor actor);

    /**
     * Changes the profile: the name and description when present, and each metadata key (a null value removes it).
     * {@code NotFound} for no store, {@code DocumentRefused} (archived) when the store is archived.
     */
    StoreProfile update(String store, Optional<String> name, Optional<String> description,
            Map<String, String> metadata, Actor actor);

    /** Archives the store (read-only from now on); a store already archived is answered as it is. */
    StoreProfile archive(String store, Actor actor);

    /**
     * Erases the store's memories: deletes every live one (a version each) and redacts every version, drops its
     * profile and records the deletion; the store itself stays (Engram never removes a store), holding no memory.
     */
    void delete(String store, Actor actor);

    /** Up to {@code n} versions {@code query} holds, newest first, with seqs below {@code before} (0: from the newest). */
    List<MemoryVersion> versions(String store, VersionQuery query, long before, int n);

    /** Version {@code seq} of a memory of the store, or empty. */
    Optional<MemoryVersion> version(String store, long seq);

    /**
     * Redacts version {@code seq}: its path, content, digest and size are erased from the journal record, which
     * keeps its actor and time and records who redacted it; a version already redacted is answered as it is.
     * {@code NotFound} for no such version; {@code Invalid} for the current version of a live memory.
     */
    MemoryVersion redact(String store, long seq, Actor actor);
}
