package dev.engram.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A transaction's last statement sent with its commit ({@link Sql.Tx#oneAndCommit}): what the transaction wrote is
 * committed when that statement answers, before the work returns; a failing last statement rolls back everything
 * before it; nothing runs on the transaction after it.
 */
@QuarkusTest
class SqlLastStatementTest {

    @Inject
    AgroalDataSource dataSource;

    private final String store = "sql-last-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void the_commit_lands_with_the_last_statement_before_the_work_returns() {
        Sql sql = new Sql(dataSource);
        String seenInside = sql.transaction(tx -> {
            tx.update("insert into store (id, max_entry_bytes) values (?, 100)", store);
            long seq = tx.oneAndCommit("update store set seq = seq + 7 where id = ? returning seq", r -> r.getLong(1),
                    store);
            assertEquals(7, seq);
            // Another connection sees both writes while this work has not returned: they are committed.
            return seqOf(store).orElse("none");
        });
        assertEquals("7", seenInside);
        assertEquals(Optional.of("7"), seqOf(store));
    }

    @Test
    void a_last_statement_that_fails_rolls_back_what_came_before_it() {
        Sql sql = new Sql(dataSource);
        assertThrows(StoreUnavailable.class, () -> sql.transaction(tx -> {
            tx.update("insert into store (id, max_entry_bytes) values (?, 100)", store);
            return tx.oneAndCommit("insert into store (id, max_entry_bytes) values (?, 100) returning id",
                    r -> r.getString(1), store);
        }));
        assertEquals(Optional.empty(), seqOf(store), "the first insert was rolled back with the failed one");
    }

    @Test
    void nothing_runs_on_a_transaction_after_its_last_statement() {
        Sql sql = new Sql(dataSource);
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> sql.transaction(tx -> {
            tx.oneAndCommit("insert into store (id, max_entry_bytes) values (?, 100) returning id", r -> r.getString(1),
                    store);
            return tx.update("update store set seq = 99 where id = ?", store);
        }));
        assertTrue(refused.getMessage().contains("committed"), refused.getMessage());
        assertEquals(Optional.of("0"), seqOf(store), "the committed insert stays, the later update never ran");
    }

    @Test
    void in_autocommit_the_last_statement_is_its_own_transaction() {
        Sql sql = new Sql(dataSource);
        String id = sql.connected(tx -> tx.oneAndCommit("insert into store (id, max_entry_bytes) values (?, 100) "
                + "returning id", r -> r.getString(1), store));
        assertEquals(store, id);
        assertEquals(Optional.of("0"), seqOf(store));
    }

    /** The store's seq as another connection reads it, if the row is there. */
    private Optional<String> seqOf(String id) {
        return new Sql(dataSource).first("select seq::text from store where id = ?", r -> r.getString(1), id);
    }
}
