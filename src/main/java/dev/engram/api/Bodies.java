package dev.engram.api;

import java.util.Map;

/** The request bodies, as Jackson reads them; the resources check what they hold. */
final class Bodies {

    private Bodies() {
    }

    /** {@code PUT .../entries/{name}}: the whole entry. */
    record PutEntry(String content, Map<String, String> meta) {
    }

    /** {@code PATCH .../entries/{name}}: replace one exact occurrence. */
    record PatchEntry(String oldText, String newText) {
    }

    /** {@code POST .../entries/{name}/erase}: why, such as the ticket of a deletion request; optional. */
    record Erase(String reason) {
    }

    /** {@code PUT /v1/stores/{store}}: the store's settings. */
    record PutStore(Integer maxEntryBytes) {
    }
}
