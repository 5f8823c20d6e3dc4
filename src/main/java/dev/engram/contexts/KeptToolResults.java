package dev.engram.contexts;

import dev.engram.contexts.cache.CachedResult;
import dev.engram.contexts.cache.ListedResult;
import dev.engram.contexts.cache.ToolResultCache;
import dev.engram.kernel.Paged;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One context's tool-result cache as {@link InMemoryContexts} keeps it, as the PostgreSQL one does: a short hash is
 * the shortest prefix of the full hash, from {@link #MIN_SHORT_HASH} hex digits, that no other entry holds; nothing
 * is evicted, so a short hash is never reissued. A change works on a {@link #copy} kept only if it lands.
 */
final class KeptToolResults implements ToolResultCache {

    private final Map<String, CachedResult> byShort;
    private final Map<String, Instant> cachedAt;

    KeptToolResults() {
        this(new LinkedHashMap<>(), new HashMap<>());
    }

    private KeptToolResults(Map<String, CachedResult> byShort, Map<String, Instant> cachedAt) {
        this.byShort = byShort;
        this.cachedAt = cachedAt;
    }

    /** A cache holding what this one holds, which changes apart from it. */
    KeptToolResults copy() {
        return new KeptToolResults(new LinkedHashMap<>(byShort), new HashMap<>(cachedAt));
    }

    /** The entries by short hash after {@code after} ("" for the first), at most {@code limit}, without content. */
    Paged<ListedResult> list(String after, int limit) {
        String from = after == null ? "" : after;
        List<ListedResult> fetched = new TreeMap<>(byShort).tailMap(from, false).values().stream()
                .limit(Math.max(0, limit) + 1L).map(r -> ListedResult.of(r, cachedAt.get(r.shortHash()))).toList();
        return Paged.of(fetched, limit, Long.MAX_VALUE, r -> 0);
    }

    @Override
    public String keep(String full, String tool, String content, boolean file, String path, long mtime, long size) {
        ContextRules.checkToolResult(content, path);
        for (CachedResult r : byShort.values()) {
            if (r.hash().equals(full)) {
                return r.shortHash();
            }
        }
        String shortHash = full;
        for (int n = MIN_SHORT_HASH; n <= full.length(); n++) {
            if (!byShort.containsKey(full.substring(0, n))) {
                shortHash = full.substring(0, n);
                break;
            }
        }
        byShort.put(shortHash, new CachedResult(full, shortHash, tool == null ? "" : tool,
                content == null ? "" : content, file, path == null ? "" : path, mtime, size));
        cachedAt.put(shortHash, Instant.now());
        return shortHash;
    }

    @Override
    public Optional<CachedResult> get(String hash) {
        if (hash == null || hash.isEmpty()) {
            return Optional.empty();
        }
        CachedResult exact = byShort.get(hash);
        if (exact != null) {
            return Optional.of(exact);
        }
        return ToolResultCache.uniquePrefix(byShort.values(), hash);
    }

    /** Not offered, as over PostgreSQL: a kept short hash stays valid for the context's life. */
    @Override
    public boolean evict(String hash) {
        throw new UnsupportedOperationException("The kept tool-result cache does not evict");
    }

    @Override
    public int size() {
        return byShort.size();
    }
}
