package dev.engram.persistence;

import java.sql.SQLException;

/** PostgreSQL could not be reached or failed a statement for a reason that is not the caller's. */
public final class StoreUnavailable extends RuntimeException {

    public StoreUnavailable(SQLException cause) {
        super("The database failed: " + cause.getSQLState(), cause);
    }

    /** Whether the database could not be reached at all (connection class 08, or shutting down, 57P). */
    public boolean connectionLost() {
        String state = ((SQLException) getCause()).getSQLState();
        return state == null || state.startsWith("08") || state.startsWith("57P");
    }

    /** Whether PostgreSQL failed the statement to break a deadlock (40P01): the transaction, made again, may land. */
    public boolean deadlocked() {
        return "40P01".equals(((SQLException) getCause()).getSQLState());
    }
}
