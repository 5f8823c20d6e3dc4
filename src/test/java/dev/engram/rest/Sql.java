package dev.engram.rest;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * What a REST test reads straight from the database to see what its requests wrote (or did not): the first column
 * of the first row, the query's {@code ?} bound to the arguments in their order.
 */
public final class Sql {

    private Sql() {
    }

    /** The value as a number (SQL NULL is 0); -1 when the query finds no row. */
    public static long count(DataSource db, String sql, Object... args) throws SQLException {
        return query(db, sql, args, r -> r.next() ? r.getLong(1) : -1);
    }

    /** The value as text; a query that finds no row fails the test. */
    public static String text(DataSource db, String sql, Object... args) throws SQLException {
        return query(db, sql, args, r -> {
            if (!r.next()) {
                throw new AssertionError("no row: " + sql);
            }
            return r.getString(1);
        });
    }

    /** What a test reads of a query's rows. */
    private interface Read<T> {
        T from(ResultSet rows) throws SQLException;
    }

    private static <T> T query(DataSource db, String sql, Object[] args, Read<T> read) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement p = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                p.setObject(i + 1, args[i]);
            }
            try (ResultSet r = p.executeQuery()) {
                return read.from(r);
            }
        }
    }
}
