package dev.engram.memories.persistence;

import dev.engram.entries.persistence.KeySeen;
import dev.engram.kernel.IdempotencyKey;
import dev.engram.kernel.KeyReused;
import dev.engram.kernel.Limited;
import dev.engram.persistence.StoreUnavailable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The JDBC of memories in one place: a statement prepared and bound from its arguments in order (an {@link Instant}
 * as a UTC timestamp, a {@code String[]} as a text array, null as SQL null), every {@link SQLException} translated
 * by {@link #refusal}, and one transaction template that commits what its work did or rolls all of it back.
 */
final class Sql {

    /** Reads one row of a result into a value. */
    @FunctionalInterface
    interface Row<T> {
        T read(ResultSet r) throws SQLException;
    }

    /** Work on one connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(Tx tx) throws SQLException;
    }

    /** A save lost a race with another change of its memory (EG409): read again and retry. */
    static final class Raced extends RuntimeException {

        Raced(SQLException cause) {
            super(null, cause, false, false);
        }

        /** The race as the database failing, for a caller that does not retry (or tried enough). */
        StoreUnavailable unavailable() {
            return new StoreUnavailable((SQLException) getCause());
        }
    }

    /**
     * The rows a list reads from the database at a time, inside a transaction (in autocommit it reads them all): a
     * store's whole index is read in a few round trips without holding every row at once.
     */
    private static final int FETCH = 2000;

    private final DataSource source;
    private final int maxMemories;

    /** For work that saves no memory, so never reaches the store's quota. */
    Sql(DataSource source) {
        this(source, 0);
    }

    Sql(DataSource source, int maxMemories) {
        this.source = source;
        this.maxMemories = maxMemories;
    }

    /** Runs {@code work} on a connection in autocommit: each statement its own transaction. */
    <T> T connected(Work<T> work) {
        try (Connection c = source.getConnection()) {
            return work.run(new Tx(c));
        } catch (SQLException e) {
            throw refusal(e);
        }
    }

    /**
     * Runs {@code work} in one transaction: committed when it returns (rolled back instead when it called
     * {@link Tx#rollbackOnly}), rolled back whole when it throws.
     */
    <T> T transaction(Work<T> work) {
        try (Connection c = source.getConnection()) {
            c.setAutoCommit(false);
            try {
                Tx tx = new Tx(c);
                T done = work.run(tx);
                if (tx.rollbackOnly) {
                    c.rollback();
                } else {
                    c.commit();
                }
                return done;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw refusal(e);
        }
    }

    /** The rows {@code sql} answers, each read by {@code row}, on a connection of its own. */
    <T> List<T> list(String sql, Row<T> row, Object... args) {
        return connected(tx -> tx.list(sql, row, args));
    }

    /** The first row {@code sql} answers, if any, on a connection of its own. */
    <T> Optional<T> first(String sql, Row<T> row, Object... args) {
        return connected(tx -> tx.first(sql, row, args));
    }

    /**
     * What a failed statement means: a lost race ({@link Raced}, EG409), the store's quota reached (EG429), or the
     * database failing.
     */
    RuntimeException refusal(SQLException e) {
        return switch (String.valueOf(e.getSQLState())) {
            case "EG409" -> new Raced(e);
            case "EG429" -> new Limited(Limited.Kind.QUOTA, "memories-per-store", maxMemories, 0, "This store holds "
                    + maxMemories + " memories, its most. Delete memories it no longer needs, or ask the operator for "
                    + "a larger engram.limits.memories-per-store. Saving over an existing memory still works.");
            default -> new StoreUnavailable(e);
        };
    }

    /** One connection's statements. */
    static final class Tx {

        private final Connection c;
        private boolean rollbackOnly;

        private Tx(Connection c) {
            this.c = c;
        }

        Connection connection() {
            return c;
        }

        /** Ends the transaction with a rollback, not a commit: the work found nothing to change. */
        void rollbackOnly() {
            rollbackOnly = true;
        }

        /** Runs {@code sql} and answers how many rows it changed. */
        long update(String sql, Object... args) throws SQLException {
            try (PreparedStatement s = prepare(sql, args)) {
                return s.executeUpdate();
            }
        }

        <T> List<T> list(String sql, Row<T> row, Object... args) throws SQLException {
            try (PreparedStatement s = prepare(sql, args)) {
                s.setFetchSize(FETCH);
                try (ResultSet r = s.executeQuery()) {
                    List<T> found = new ArrayList<>();
                    while (r.next()) {
                        found.add(row.read(r));
                    }
                    return found;
                }
            }
        }

        <T> Optional<T> first(String sql, Row<T> row, Object... args) throws SQLException {
            try (PreparedStatement s = prepare(sql, args); ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(row.read(r)) : Optional.empty();
            }
        }

        /** The one row {@code sql} answers. */
        <T> T one(String sql, Row<T> row, Object... args) throws SQLException {
            return first(sql, row, args).orElseThrow(() -> new IllegalStateException("No row: " + sql));
        }

        /**
         * Takes the lock of {@code key} ({@link KeySeen#lock}) and answers what the first write under it recorded;
         * {@link KeyReused} when the key came with another request (EG422).
         */
        Optional<KeySeen> keySeen(String store, IdempotencyKey key) throws SQLException {
            try {
                return KeySeen.lock(c, store, key);
            } catch (SQLException e) {
                if ("EG422".equals(e.getSQLState())) {
                    throw new KeyReused(key.key());
                }
                throw e;
            }
        }

        private PreparedStatement prepare(String sql, Object... args) throws SQLException {
            PreparedStatement s = c.prepareStatement(sql);
            try {
                for (int i = 0; i < args.length; i++) {
                    Object a = args[i];
                    s.setObject(i + 1, a instanceof Instant t ? OffsetDateTime.ofInstant(t, ZoneOffset.UTC)
                            : a instanceof String[] array ? c.createArrayOf("text", array) : a);
                }
                return s;
            } catch (SQLException | RuntimeException e) {
                s.close();
                throw e;
            }
        }
    }
}
