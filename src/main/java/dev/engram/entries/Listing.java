package dev.engram.entries;

import dev.engram.kernel.Scope;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a render reads of a store, in one go ({@link Store#listing}): the live entries of some scopes, each list by
 * name, and the store's entry bound, both as of one moment, so that every replica renders the same bytes for one
 * state.
 *
 * @param lists the entries by scope, in the order the scopes were asked for (or in byte order for all)
 * @param exists whether the store exists; a store never written lists nothing, with the default bound
 * @param stamp the store's {@link EntriesStamp} as of the same moment, when the store exists and tells it
 */
public record Listing(Map<Scope, List<Entry>> lists, int maxEntryBytes, boolean exists, Optional<EntriesStamp> stamp) {

    public Listing {
        Map<Scope, List<Entry>> copy = new LinkedHashMap<>();
        lists.forEach((scope, entries) -> copy.put(scope, List.copyOf(entries)));
        lists = java.util.Collections.unmodifiableMap(copy);
        stamp = stamp == null ? Optional.empty() : stamp;
    }

    /** A listing with no stamp: a render made of it is not kept. */
    public Listing(Map<Scope, List<Entry>> lists, int maxEntryBytes, boolean exists) {
        this(lists, maxEntryBytes, exists, Optional.empty());
    }
}
