package dev.engram.documents;

import java.util.Objects;

/**
 * What a document's change did: the document after it (for a deletion, as it was), the seq of its journal record
 * (0 when it changed nothing and appended none), and the version's operation.
 */
public record Written(Document document, long seq, Operation operation) {

    /** A version's operation, as the Memory Stores API names it. */
    public enum Operation {
        CREATED, MODIFIED, DELETED;

        /** Its name in JSON and in the journal's kinds ({@code document.created}, ...). */
        public String json() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public Written {
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(operation, "operation");
    }

    /** Whether the change appended a record. */
    public boolean changed() {
        return seq > 0;
    }
}
