package dev.engram.documents.persistence;

import dev.engram.kernel.DocumentRefused;
import dev.engram.kernel.Limited;
import dev.engram.kernel.NotFound;
import dev.engram.persistence.StoreUnavailable;
import java.sql.SQLException;
import org.postgresql.util.PSQLException;

/** The refusals the document write functions raise (SQLSTATE EGnnn), as the core's errors. */
final class DocumentRefusals {

    private DocumentRefusals() {
    }

    /** The refusal of a change of document {@code id} at {@code path} expecting {@code expect}. */
    static RuntimeException of(SQLException e, String store, String id, String path, String expect) {
        String detail = e instanceof PSQLException p && p.getServerErrorMessage() != null
                ? p.getServerErrorMessage().getDetail() : null;
        return switch (String.valueOf(e.getSQLState())) {
            case "EG404" -> NotFound.document(id);
            case "EG409" -> DocumentRefused.pathTaken(path, detail == null ? "" : detail);
            case "EG412" -> DocumentRefused.changed(id, path, expect, detail == null ? "" : detail);
            case "EG423" -> DocumentRefused.archived(store);
            case "EG429" -> new Limited(Limited.Kind.QUOTA, "documents-per-store", Long.parseLong(detail), 0,
                    "The store already holds " + detail + " documents, its most; " + path + " would be one more. "
                    + "Delete documents it no longer needs, or write into an existing one.");
            default -> new StoreUnavailable(e);
        };
    }
}
