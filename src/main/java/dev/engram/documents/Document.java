package dev.engram.documents;

import java.time.Instant;
import java.util.Objects;

/**
 * One path-addressed document of a store (ADR 0009): a text file that Claude's memory tool and the Memory Stores API
 * address by {@code path}. The store sets the {@code id} (stable across renames), the content's {@code sha256} and
 * {@code size}, the times and the {@code version}: the seq of the journal record of its last change.
 *
 * @param path as {@link DocumentPath#check} accepts it
 * @param sha256 the lowercase hex SHA-256 of the content's UTF-8 bytes
 * @param size the content's length in UTF-8 bytes
 */
public record Document(String id, String path, String content, String sha256, int size, Instant createdAt,
        Instant updatedAt, long version) {

    public Document {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

}
