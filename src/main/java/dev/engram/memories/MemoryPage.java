package dev.engram.memories;

import java.util.List;

/**
 * A page of a store's memories, newest first, and how many it holds in all; {@code truncated} when it ended before
 * the limit asked for, at a page's byte bound.
 */
public record MemoryPage(List<Memory> memories, long total, boolean truncated) {

    public MemoryPage {
        memories = List.copyOf(memories);
    }

    public MemoryPage(List<Memory> memories, long total) {
        this(memories, total, false);
    }
}
