package dev.engram.contexts.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The tool-result cache (SPEC §7) and {@code tool_result_read}'s texts. */
class ToolResultCacheTest {

    @Test
    void hashesAreContentAddressed() {
        assertEquals("d59dd1a372b5401f48d0c421f0ee8fd646676bfc3aac572a0ee4586fa99afa64",
                ToolResultCache.contentHash("read_file", "hello"));
        assertEquals("d139999b57aea9d3a04794bd3602d16f5c91134f7eead8ffbac978ae280ff815",
                ToolResultCache.fileHash("read_file", "/src/a.go", 1000, 42));
        InMemoryToolResultCache cache = new InMemoryToolResultCache();
        String first = cache.store("read_file", "hello");
        assertEquals(4, first.length());
        assertEquals(ToolResultCache.contentHash("read_file", "hello").substring(0, 4), first);
        assertEquals(first, cache.store("read_file", "hello"));
        assertNotEquals(first, cache.store("ripgrep", "hello"));
        assertEquals(2, cache.size());
    }

    @Test
    void fileBackedEntriesAreKeyedByPathMtimeAndSize() {
        InMemoryToolResultCache cache = new InMemoryToolResultCache();
        String a = cache.storeFile("read_file", "/src/a.go", 1_000L, 42, "package a");
        assertEquals(a, cache.storeFile("read_file", "/src/a.go", 1_000L, 42, "package a (re-read)"));
        assertNotEquals(a, cache.storeFile("read_file", "/src/a.go", 2_000L, 42, "package a"));
        assertEquals(ToolResultCache.fileHash("read_file", "/src/a.go", 1_000L, 42),
                cache.get(a).orElseThrow().hash());
        assertTrue(cache.get(a).orElseThrow().fileBacked());
    }

    @Test
    void shortHashesGrowOnCollisionAndResolveByShortFullOrUniquePrefix() {
        InMemoryToolResultCache cache = new InMemoryToolResultCache();
        Set<String> shorts = new HashSet<>();
        String longer = null;
        for (int i = 0; i < 3000 && longer == null; i++) {
            String hash = cache.store("t", "content " + i);
            assertTrue(shorts.add(hash), "short hashes are never reused");
            if (hash.length() > 4) {
                longer = hash;
            }
        }
        assertTrue(longer != null, "a collision in 3000 entries of 65536 prefixes is all but certain");
        CachedResult entry = cache.get(longer).orElseThrow();
        assertTrue(entry.hash().startsWith(longer));
        assertEquals(Optional.of(entry), cache.get(entry.hash()));
        assertEquals(Optional.of(entry), cache.get(entry.hash().substring(0, 20)));
        assertEquals(Optional.empty(), cache.get(longer.substring(0, 4)).filter(e -> e.equals(entry)));
        assertEquals(Optional.empty(), cache.get(""));
        assertEquals(Optional.empty(), cache.get("zzzz"));
    }

    @Test
    void anEvictedShortHashIsRetiredForGood() {
        InMemoryToolResultCache cache = new InMemoryToolResultCache();
        String hash = cache.store("t", "gone soon");
        assertTrue(cache.evict(hash));
        assertFalse(cache.evict(hash));
        assertEquals(Optional.empty(), cache.get(hash));
        String again = cache.store("t", "gone soon");
        assertNotEquals(hash, again);
        assertEquals(hash.length() + 1, again.length());
        assertEquals(Optional.empty(), cache.get(hash), "a retired short hash does not alias its successor");
    }

    @Test
    void toolResultReadWindowsAndTexts() {
        InMemoryToolResultCache cache = new InMemoryToolResultCache();
        StringBuilder content = new StringBuilder();
        for (int i = 1; i <= 1200; i++) {
            content.append("line ").append(i).append(i < 1200 ? "\n" : "");
        }
        String hash = cache.store("ripgrep", content.toString());

        ToolResultRead.Answer first = ToolResultRead.read(cache, hash, 0, 0, 0);
        assertFalse(first.error());
        assertTrue(first.text().startsWith("[Lines 1-500 of 1200 from cached ripgrep result | hash: " + hash
                + "]\nline 1\nline 2\n"), first.text());
        assertTrue(first.text().endsWith("line 500\n\n[Use tool_result_read(hash=\"" + hash
                + "\", start_line=501, num_lines=500) to continue reading]"), first.text());

        ToolResultRead.Answer capped = ToolResultRead.read(cache, hash, 1100, 9999, 0);
        assertEquals("[Lines 1100-1200 of 1200 from cached ripgrep result | hash: " + hash + "]\n"
                + String.join("\n", java.util.stream.IntStream.rangeClosed(1100, 1200).mapToObj(i -> "line " + i)
                        .toList()), capped.text());

        assertEquals("[Lines 1200-1200 of 1200 from cached ripgrep result | hash: " + hash + "]\nline 1200",
                ToolResultRead.read(cache, hash, 5000, 3, 0).text());
        assertEquals("[Line 7 of 1200 from cached ripgrep result | hash: " + hash + "]\nline 7",
                ToolResultRead.read(cache, hash, 1, 1, 7).text());
        assertEquals("[Line 1201 is past end of cached ripgrep result (1200 lines) | hash: " + hash + "]",
                ToolResultRead.read(cache, hash, 1, 1, 1201).text());
    }

    @Test
    void toolResultReadRefusals() {
        InMemoryToolResultCache cache = new InMemoryToolResultCache();
        assertEquals(new ToolResultRead.Answer("validation error: hash is required", true),
                ToolResultRead.read(cache, "", 1, 1, 0));
        assertEquals(new ToolResultRead.Answer("No cached result found for hash: beef. The cache entry may have "
                + "expired or the hash is incorrect.", true), ToolResultRead.read(cache, "beef", 1, 1, 0));
    }
}
