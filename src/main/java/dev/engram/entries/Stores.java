package dev.engram.entries;

import java.util.List;
import java.util.Optional;

/** The stores of one service, by ID. A store is created by its first write or by {@link #configure}. */
public interface Stores {

    /** The store {@code id}; reads of a store never written to find nothing, and its first write creates it. */
    Store store(String id);

    /** Whether store {@code id} exists: cheaper than {@link #info}, which counts its entries. */
    boolean exists(String id);

    /** What store {@code id} is, or empty when it does not exist. */
    Optional<StoreInfo> info(String id);

    /**
     * Creates store {@code id} with the content bound {@code maxEntryBytes}, or sets the bound of the existing one.
     * Entries already over a lowered bound stay; their next write must fit.
     */
    StoreInfo configure(String id, int maxEntryBytes);

    /**
     * A page of the stores one of {@code patterns} covers (a store ID, or a glob in which {@code *} stands for any run
     * of characters, as a grant names stores), by ID: those after {@code after} ("" from the first), at most
     * {@code limit}, each with its counts.
     */
    List<StoreSummary> page(List<String> patterns, String after, int limit);
}
