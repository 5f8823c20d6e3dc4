package dev.engram.persistence;

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
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * The JDBC of every tier in one place: a statement prepared and bound from its arguments in order (an {@link Instant}
 * as a UTC timestamp, a {@code String[]} as a text array, an {@code Integer[]} as an integer array, null as SQL
 * null), every {@link SQLException} translated by {@link #refusal} (the tier's SQLSTATEs, else
 * {@link StoreUnavailable}), and one transaction template that commits what its work did or rolls all of it back.
 */
public final class Sql {

    /** Reads one row of a result into a value. */
    @FunctionalInterface
    public interface Row<T> {
        T read(ResultSet r) throws SQLException;
    }

    /** Work on one connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Tx tx) throws SQLException;
    }

    /**
     * The rows a list reads from the database at a time, inside a transaction (in autocommit it reads them all): a
     * store's whole index is read in a few round trips without holding every row at once.
     */
    private static final int FETCH = 2000;

    private final DataSource source;
    private final Function<SQLException, RuntimeException> refusal;

    /** Every failed statement is the database failing ({@link StoreUnavailable}). */
    public Sql(DataSource source) {
        this(source, StoreUnavailable::new);
    }

    /** Failed statements translated by {@code refusal}: the tier's own SQLSTATEs. */
    public Sql(DataSource source, Function<SQLException, RuntimeException> refusal) {
        this.source = source;
        this.refusal = refusal;
    }

    /** Runs {@code work} on a connection in autocommit: each statement its own transaction. */
    public <T> T connected(Work<T> work) {
        try (Connection c = source.getConnection()) {
            return work.run(new Tx(c));
        } catch (SQLException e) {
            throw refusal.apply(e);
        }
    }

    /**
     * Runs {@code work} in one transaction: committed when it returns (rolled back instead when it called
     * {@link Tx#rollbackOnly}), rolled back whole when it throws.
     */
    public <T> T transaction(Work<T> work) {
        try (Connection c = source.getConnection()) {
            c.setAutoCommit(false);
            try {
                Tx tx = new Tx(c);
                T done = work.run(tx);
                if (tx.rollbackOnly) {
                    c.rollback();
                } else if (!tx.committed) {
                    c.commit();
                }
                return done;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw refusal.apply(e);
        }
    }

    /** The rows {@code sql} answers, each read by {@code row}, on a connection of its own. */
    public <T> List<T> list(String sql, Row<T> row, Object... args) {
        return connected(tx -> tx.list(sql, row, args));
    }

    /** The first row {@code sql} answers, if any, on a connection of its own. */
    public <T> Optional<T> first(String sql, Row<T> row, Object... args) {
        return connected(tx -> tx.first(sql, row, args));
    }

    /** One connection's statements. */
    public static final class Tx {

        private final Connection c;
        private boolean rollbackOnly;
        private boolean committed;

        private Tx(Connection c) {
            this.c = c;
        }

        public Connection connection() {
            return c;
        }

        /** Ends the transaction with a rollback, not a commit: the work found nothing to change. */
        public void rollbackOnly() {
            rollbackOnly = true;
        }

        /** Runs {@code sql} and answers how many rows it changed. */
        public long update(String sql, Object... args) throws SQLException {
            try (PreparedStatement s = prepare(sql, args)) {
                return s.executeUpdate();
            }
        }

        public <T> List<T> list(String sql, Row<T> row, Object... args) throws SQLException {
            return list(FETCH, sql, row, args);
        }

        /** As {@link #list(String, Row, Object...)}, reading {@code fetch} rows at a time (0: all at once). */
        public <T> List<T> list(int fetch, String sql, Row<T> row, Object... args) throws SQLException {
            try (PreparedStatement s = prepare(sql, args)) {
                s.setFetchSize(fetch);
                try (ResultSet r = s.executeQuery()) {
                    List<T> found = new ArrayList<>();
                    while (r.next()) {
                        found.add(row.read(r));
                    }
                    return found;
                }
            }
        }

        public <T> Optional<T> first(String sql, Row<T> row, Object... args) throws SQLException {
            try (PreparedStatement s = prepare(sql, args); ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(row.read(r)) : Optional.empty();
            }
        }

        /** The one row {@code sql} answers. */
        public <T> T one(String sql, Row<T> row, Object... args) throws SQLException {
            return first(sql, row, args).orElseThrow(() -> new IllegalStateException("No row: " + sql));
        }

        /**
         * The one row {@code sql} answers, sent with the transaction's commit in the same round trip: the last
         * statement of a transaction whose locks the commit releases, so they are not held while its answer travels
         * back and a separate commit travels out. Nothing may be run on the transaction after it.
         */
        public <T> T oneAndCommit(String sql, Row<T> row, Object... args) throws SQLException {
            if (c.getAutoCommit()) {
                return one(sql, row, args);
            }
            try (PreparedStatement s = prepare(sql + ";\ncommit", args)) {
                boolean rows = s.execute();
                // The commit ran unless the statement failed, which throws above and leaves the rollback to come.
                committed = true;
                if (!rows) {
                    throw new IllegalStateException("No rows: " + sql);
                }
                T done;
                try (ResultSet r = s.getResultSet()) {
                    if (!r.next()) {
                        throw new IllegalStateException("No row: " + sql);
                    }
                    done = row.read(r);
                }
                while (s.getMoreResults() || s.getUpdateCount() != -1) {
                    // the commit's status
                }
                return done;
            }
        }

        private PreparedStatement prepare(String sql, Object... args) throws SQLException {
            if (committed) {
                throw new IllegalStateException("The transaction was committed with its last statement: " + sql);
            }
            PreparedStatement s = c.prepareStatement(sql);
            try {
                for (int i = 0; i < args.length; i++) {
                    Object a = args[i];
                    s.setObject(i + 1, a instanceof Instant t ? OffsetDateTime.ofInstant(t, ZoneOffset.UTC)
                            : a instanceof String[] array ? c.createArrayOf("text", array)
                            : a instanceof Integer[] ints ? c.createArrayOf("integer", ints) : a);
                }
                return s;
            } catch (SQLException | RuntimeException e) {
                s.close();
                throw e;
            }
        }
    }
}
