package dev.engram.persistence;

import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.KeyReused;
import java.sql.SQLException;
import java.util.Optional;

/**
 * What a write first made under an idempotency key recorded: the seq of its journal record (0 when it changed
 * nothing) and the answer kept for a retry.
 */
public record KeySeen(long seq, String reply) {

    /**
     * Takes the lock of {@code key} in {@code store} until the transaction of {@code tx} ends ({@code engram_key_seen},
     * R__entry_writes.sql), so that a retry racing the first write waits for it, and answers what that write recorded; empty
     * when no write was made under the key. {@link KeyReused} when the key came with another request (EG422).
     */
    public static Optional<KeySeen> lock(Sql.Tx tx, String store, IdempotencyKey key) throws SQLException {
        try {
            return tx.first("select seq, reply from engram_key_seen(?, ?, ?, ?)", r -> new KeySeen(r.getLong(1),
                    r.getString(2)), store, key.caller(), key.key(), key.fingerprint());
        } catch (SQLException e) {
            if ("EG422".equals(e.getSQLState())) {
                throw new KeyReused(key.key());
            }
            throw e;
        }
    }
}
