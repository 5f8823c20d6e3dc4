package dev.engram.persistence;

import dev.engram.entries.persistence.PgStores;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.entries.Entry;
import dev.engram.entries.Hash;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.entries.PutOptions;
import dev.engram.entries.Replayed;
import dev.engram.kernel.Scope;
import dev.engram.entries.Store;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Keys older than the retention are swept, newer ones kept; a swept key writes again. */
@QuarkusTest
class PgIdempotencySweepTest {

    private static final Scope USER = new Scope("user");

    @Inject
    PgStores stores;

    @Inject
    PgIdempotencySweep sweep;

    @Inject
    AgroalDataSource db;

    @Test
    void keysOlderThanTheRetentionAreSweptAndNewerOnesKept() throws Exception {
        String id = "sweep-" + UUID.randomUUID();
        Store s = stores.store(id);
        IdempotencyKey old = IdempotencyKey.of("", "k-old", Hash.of("old"));
        IdempotencyKey fresh = IdempotencyKey.of("", "k-fresh", Hash.of("fresh"));
        s.put(Entry.draft(USER, "a", "old", Map.of()), PutOptions.NONE.idempotent(old));
        s.put(Entry.draft(USER, "b", "fresh", Map.of()), PutOptions.NONE.idempotent(fresh));
        try (Connection c = db.getConnection(); PreparedStatement p = c.prepareStatement("update idempotency set "
                + "created_at = created_at - interval '25 hours' where store_id = ? and key = 'k-old'")) {
            p.setString(1, id);
            assertEquals(1, p.executeUpdate());
        }

        assertTrue(sweep.sweep(Duration.ofHours(24)) >= 1);

        assertEquals(Optional.empty(), s.replay(old));
        assertTrue(s.replay(fresh).isPresent());
        assertInstanceOf(Replayed.class, s.put(Entry.draft(USER, "b", "fresh", Map.of()),
                PutOptions.NONE.idempotent(fresh)));
        assertEquals(3, s.put(Entry.draft(USER, "a", "old", Map.of()), PutOptions.NONE.idempotent(old)).change().seq(),
                "a retry after the key expired is a new write");
    }
}
