package dev.engram.memories.persistence;

import dev.engram.persistence.StoreUnavailable;
import javax.sql.DataSource;

/**
 * What the database offers for vectors, checked at start: whether the pgvector extension is installed, only
 * available, or absent. Engram ranks with its in-memory index on every database (PgRecallIndexes); this is reported
 * in the log and in {@code /q/health} so an operator knows which path serves recall.
 */
record VectorSupport(String pgvector) {

    static final String INSTALLED = "installed";
    static final String AVAILABLE = "available";
    static final String ABSENT = "absent";

    /** The path recall's similarity runs on. */
    String path() {
        return "in-memory index (cosine over each store's vectors, read from memory_vector)";
    }

    static VectorSupport of(DataSource dataSource) {
        try {
            return Raced.sql(dataSource, 0).first("select exists (select 1 from pg_extension where extname = 'vector'), "
                    + "exists (select 1 from pg_available_extensions where name = 'vector')", r -> new VectorSupport(
                            r.getBoolean(1) ? INSTALLED : r.getBoolean(2) ? AVAILABLE : ABSENT)).orElseThrow();
        } catch (StoreUnavailable e) {
            return new VectorSupport("unknown (" + e.getCause().getMessage() + ")");
        }
    }
}
