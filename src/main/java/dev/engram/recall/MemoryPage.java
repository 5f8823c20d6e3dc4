package dev.engram.recall;

import java.util.List;

/** A page of a store's memories, newest first, and how many it holds in all. */
public record MemoryPage(List<Memory> memories, long total) {

    public MemoryPage {
        memories = List.copyOf(memories);
    }
}
