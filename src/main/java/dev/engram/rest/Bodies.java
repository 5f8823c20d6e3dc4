package dev.engram.rest;

import java.util.Map;

/** The request bodies, as Jackson reads them; the resources check what they hold. */
public final class Bodies {

    private Bodies() {
    }

    /** {@code PUT .../entries/{name}}: the whole entry. */
    public record PutEntry(String content, Map<String, String> meta) {
    }

    /** {@code PATCH .../entries/{name}}: replace one exact occurrence. */
    public record PatchEntry(String oldText, String newText) {
    }

    /** {@code POST .../entries/{name}/erase}: why, such as the ticket of a deletion request; optional. */
    public record Erase(String reason) {
    }

    /** {@code PUT /v1/stores/{store}}: the store's settings. */
    public record PutStore(Integer maxEntryBytes) {
    }
}
