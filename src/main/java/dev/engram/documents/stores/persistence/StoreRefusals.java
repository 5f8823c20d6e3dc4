package dev.engram.documents.stores.persistence;

import dev.engram.kernel.DocumentRefused;
import dev.engram.kernel.Invalid;
import dev.engram.kernel.NotFound;
import dev.engram.persistence.StoreUnavailable;
import java.sql.SQLException;

/** The refusals the memory store write functions raise (SQLSTATE EGnnn, R__memory_store_writes.sql), as the core's errors. */
final class StoreRefusals {

    private StoreRefusals() {
    }

    /** The refusal of a write to store {@code store} (its memory store id {@code shown}). */
    static RuntimeException of(SQLException e, String store, String shown) {
        return switch (String.valueOf(e.getSQLState())) {
            case "EG404" -> NotFound.memoryStore(shown);
            case "EG409" -> new Invalid("store-exists", "", "Store " + store + " exists already; create the memory "
                    + "store again, which picks another id.");
            case "EG410" -> new Invalid("version-current", "memory_version_id", "This version is the current "
                    + "content of a live memory, so it cannot be redacted. Update the memory (its new content "
                    + "becomes the current version) or delete it, then redact this version.");
            case "EG422" -> new Invalid("metadata-pairs", "metadata", "The metadata would hold more than 16 pairs; "
                    + "remove keys (set them to null) before adding others.");
            case "EG423" -> DocumentRefused.archived(store);
            default -> new StoreUnavailable(e);
        };
    }
}
