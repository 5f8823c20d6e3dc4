package dev.engram.memories.persistence;

import dev.engram.kernel.Limited;
import dev.engram.persistence.Sql;
import dev.engram.persistence.StoreUnavailable;
import java.sql.SQLException;
import javax.sql.DataSource;

/** A save lost a race with another change of its memory (EG409): read again and retry. */
final class Raced extends RuntimeException {

    private Raced(SQLException cause) {
        super(null, cause, false, false);
    }

    /** The JDBC of memories on {@code source}: its failed statements as {@link #refusal} reads them. */
    static Sql sql(DataSource source, int maxMemories) {
        return new Sql(source, e -> refusal(e, maxMemories));
    }

    /**
     * What a failed statement of memories means: a lost race (EG409), the store's quota of {@code maxMemories}
     * reached (EG429), or the database failing.
     */
    static RuntimeException refusal(SQLException e, int maxMemories) {
        return switch (String.valueOf(e.getSQLState())) {
            case "EG409" -> new Raced(e);
            case "EG429" -> new Limited(Limited.Kind.QUOTA, "memories-per-store", maxMemories, 0, "This store holds "
                    + maxMemories + " memories, its most. Delete memories it no longer needs, or ask the operator for "
                    + "a larger engram.limits.memories-per-store. Saving over an existing memory still works.");
            default -> new StoreUnavailable(e);
        };
    }

    /** The race as the database failing, for a caller that does not retry (or tried enough). */
    StoreUnavailable unavailable() {
        return new StoreUnavailable((SQLException) getCause());
    }
}
