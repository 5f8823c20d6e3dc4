package dev.engram.tools;

import dev.engram.entries.Change;
import java.util.Objects;

/**
 * What a write tool knows and its line to the model does not: the journal record the write produced. A host
 * records it beside the call, which joins a session to the store's journal.
 */
public record WriteRecord(String tool, Change change) {

    public WriteRecord {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(change, "change");
    }
}
