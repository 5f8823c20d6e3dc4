package dev.engram.entries.persistence;

import dev.engram.entries.PutOptions;
import dev.engram.kernel.Conflict;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.KeyReused;
import dev.engram.kernel.Limited;
import dev.engram.kernel.NotFound;
import dev.engram.kernel.Scope;
import dev.engram.kernel.TooLarge;
import dev.engram.persistence.StoreUnavailable;
import java.sql.SQLException;
import org.postgresql.util.PSQLException;

/** The refusals the write functions raise (SQLSTATE EGnnn), as the core's errors; anything else is a failure. */
final class Refusals {

    private Refusals() {
    }

    /** The refusal of a write of {@code scope/name} ({@code size} bytes, -1 for a tombstone). */
    static RuntimeException of(SQLException e, Scope scope, String name, int size, PutOptions options) {
        String detail = e instanceof PSQLException p && p.getServerErrorMessage() != null
                ? p.getServerErrorMessage().getDetail() : null;
        return switch (String.valueOf(e.getSQLState())) {
            case "EG404" -> NotFound.entry(scope, name);
            case "EG412" -> new Conflict(scope, name, options.expect().orElse(""), detail == null ? "" : detail);
            case "EG429" -> new Limited(Limited.Kind.QUOTA, "entries-per-store", Long.parseLong(detail), 0,
                    "The store already holds " + Long.parseLong(detail) + " entries, its most; " + scope + "/" + name
                    + " would be one more. Forget entries it no longer needs, or write into an existing one.");
            case "EG413" -> new TooLarge(scope, name, size, Integer.parseInt(detail.split(" ")[0]),
                    Integer.parseInt(detail.split(" ")[1]));
            default -> new StoreUnavailable(e);
        };
    }

    /** As {@link #of}, under {@code key}: EG422 when the key came with another request. */
    static RuntimeException of(SQLException e, IdempotencyKey key, Scope scope, String name, int size,
            PutOptions options) {
        return "EG422".equals(e.getSQLState()) ? new KeyReused(key.key()) : of(e, scope, name, size, options);
    }
}
