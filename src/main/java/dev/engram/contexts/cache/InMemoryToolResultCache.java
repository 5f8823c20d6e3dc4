package dev.engram.contexts.cache;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** A {@link ToolResultCache} in a map, for one context's lifetime. Safe for one thread at a time per instance. */
public final class InMemoryToolResultCache implements ToolResultCache {

    private final Map<String, CachedResult> byShort = new LinkedHashMap<>();
    private final Map<String, String> fullToShort = new HashMap<>();
    private final Set<String> retired = new HashSet<>();

    @Override
    public String keep(String full, String tool, String content, boolean file, String path, long mtime, long size) {
        String known = fullToShort.get(full);
        if (known != null) {
            return known;
        }
        String shortHash = full;
        for (int n = MIN_SHORT_HASH; n <= full.length(); n++) {
            String prefix = full.substring(0, n);
            if (!byShort.containsKey(prefix) && !retired.contains(prefix)) {
                shortHash = prefix;
                break;
            }
        }
        byShort.put(shortHash, new CachedResult(full, shortHash, tool, content, file, path, mtime, size));
        fullToShort.put(full, shortHash);
        return shortHash;
    }

    @Override
    public synchronized Optional<CachedResult> get(String hash) {
        if (hash == null || hash.isEmpty()) {
            return Optional.empty();
        }
        CachedResult exact = byShort.get(hash);
        if (exact != null) {
            return Optional.of(exact);
        }
        if (retired.contains(hash)) {
            return Optional.empty();
        }
        return ToolResultCache.uniquePrefix(byShort.values(), hash);
    }

    @Override
    public synchronized boolean evict(String hash) {
        Optional<CachedResult> entry = get(hash);
        entry.ifPresent(e -> {
            byShort.remove(e.shortHash());
            fullToShort.remove(e.hash());
            retired.add(e.shortHash());
        });
        return entry.isPresent();
    }

    @Override
    public synchronized int size() {
        return byShort.size();
    }
}
