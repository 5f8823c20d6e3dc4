package dev.engram.documents.stores;

import dev.engram.documents.Actor;
import dev.engram.documents.Written.Operation;
import java.time.Instant;
import java.util.Objects;

/**
 * One version of a memory: the journal record of one change of its document, with who made it. A redacted version
 * has lost its path, content, digest and size (all null), and names when and by whom it was redacted.
 *
 * @param seq the record's seq, the version's id ({@code memver_<seq>})
 */
public record MemoryVersion(long seq, String memoryId, Operation operation, Actor actor, String path,
        String content, String sha256, Integer size, Instant createdAt, Instant redactedAt, Actor redactedBy) {

    public MemoryVersion {
        Objects.requireNonNull(memoryId, "memoryId");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    public boolean redacted() {
        return redactedAt != null;
    }
}
