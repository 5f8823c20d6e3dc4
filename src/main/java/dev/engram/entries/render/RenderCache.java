package dev.engram.entries.render;

import dev.engram.entries.EntriesStamp;
import dev.engram.entries.Listing;
import dev.engram.entries.Store;
import dev.engram.kernel.Scope;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Renders kept by what they were made of. A render is a function of a store's entries, its bound and the bounds asked
 * for, so one made from a listing with an {@link EntriesStamp} is the render of the store for as long as the store's
 * stamp reads the same. A render of a kept key reads the stamp alone (one point read of the store's row) and answers
 * the kept render when it holds, or reads the listing and renders as before: every render still asks the store, so
 * a write made through any replica is in the next render everywhere. Blocks of at most {@code mostBytes} bytes in
 * all are kept; when a new one would pass that, every kept one is let go at once. Safe for concurrent use.
 */
public final class RenderCache {

    /** The key a render is kept by: the store, the scopes as asked (empty for all), the bounds. */
    private record Key(String store, List<Scope> scopes, RenderOptions options) {
    }

    private record Kept(EntriesStamp stamp, Made made) {
    }

    /**
     * A render as a response needs it: its parts and manifest, the block joined once and its UTF-8 bytes, and whether
     * the store existed when it was read.
     */
    public record Made(Rendered rendered, String block, byte[] utf8, boolean exists) {

        /** {@code rendered}, its block joined and encoded now. */
        public static Made of(Rendered rendered, boolean exists) {
            String block = rendered.block();
            return new Made(rendered, block, block.getBytes(StandardCharsets.UTF_8), exists);
        }

        /** What this render holds in memory, about: its block's bytes, and as much again for its parts. */
        long weight() {
            return 2L * utf8.length + 256;
        }
    }

    private final long mostBytes;
    private final Map<Key, Kept> kept = new ConcurrentHashMap<>();
    private final AtomicLong keptBytes = new AtomicLong();

    /** A cache of at most {@code mostBytes} of blocks; 0 keeps none. */
    public RenderCache(long mostBytes) {
        if (mostBytes < 0) {
            throw new IllegalArgumentException("mostBytes must be 0 or more: " + mostBytes);
        }
        this.mostBytes = mostBytes;
    }

    /**
     * Renders {@code scopes} of {@code store} (every scope it holds, in byte order, when empty) within
     * {@code options}, as {@link Render#render(java.util.Map, List, int, RenderOptions)} would from the store's
     * listing now; {@link dev.engram.kernel.Budget} when the bounds cannot be met.
     */
    public Made render(Store store, List<Scope> scopes, RenderOptions options) {
        Key key = new Key(store.id(), List.copyOf(scopes), options);
        Kept known = kept.get(key);
        if (known != null) {
            Optional<EntriesStamp> now = store.stamp();
            if (now.isPresent() && now.get().equals(known.stamp())) {
                return known.made();
            }
        }
        Listing listing = store.listing(scopes);
        List<Scope> order = scopes.isEmpty() ? new ArrayList<>(listing.lists().keySet()) : scopes;
        Made made = Made.of(Render.render(listing.lists(), order, listing.maxEntryBytes(), options), listing.exists());
        listing.stamp().ifPresent(stamp -> keep(key, new Kept(stamp, made)));
        return made;
    }

    private synchronized void keep(Key key, Kept fresh) {
        long weight = fresh.made().weight();
        if (weight > mostBytes) {
            return;
        }
        if (keptBytes.addAndGet(weight) > mostBytes) {
            kept.clear();
            keptBytes.set(weight);
        }
        Kept old = kept.put(key, fresh);
        if (old != null) {
            keptBytes.addAndGet(-old.made().weight());
        }
    }

    /** How many renders are kept now. */
    public int size() {
        return kept.size();
    }
}
