package dev.engram.entries.persistence;

import dev.engram.kernel.IdempotencyKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * What a write first made under an idempotency key recorded: the seq of its journal record (0 when it changed
 * nothing) and the answer kept for a retry.
 */
public record KeySeen(long seq, String reply) {

    /**
     * Takes the lock of {@code key} in {@code store} until the transaction on {@code c} ends ({@code engram_key_seen},
     * migration V5), so that a retry racing the first write waits for it, and answers what that write recorded; empty
     * when no write was made under the key. SQLSTATE EG422 when the key came with another request.
     */
    public static Optional<KeySeen> lock(Connection c, String store, IdempotencyKey key) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select seq, reply from engram_key_seen(?, ?, ?, ?)")) {
            s.setString(1, store);
            s.setString(2, key.caller());
            s.setString(3, key.key());
            s.setString(4, key.fingerprint());
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(new KeySeen(r.getLong(1), r.getString(2))) : Optional.empty();
            }
        }
    }
}
