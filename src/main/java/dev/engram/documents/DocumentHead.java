package dev.engram.documents;

import java.time.Instant;
import java.util.Objects;

/** What a listing shows of a document: all but its content. */
public record DocumentHead(String id, String path, String sha256, int size, Instant createdAt, Instant updatedAt,
        long version) {

    public DocumentHead {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(path, "path");
    }

    /** The head of {@code d}. */
    public static DocumentHead of(Document d) {
        return new DocumentHead(d.id(), d.path(), d.sha256(), d.size(), d.createdAt(), d.updatedAt(), d.version());
    }
}
