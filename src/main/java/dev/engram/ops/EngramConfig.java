package dev.engram.ops;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;

/** Engram's settings, all under {@code engram.}; each can be set as an environment variable ({@code ENGRAM_...}). */
@ConfigMapping(prefix = "engram")
public interface EngramConfig {

    /** The content bound, in bytes, of a store created by its first write. */
    @WithDefault("4096")
    int defaultMaxEntryBytes();

    /** The largest content bound a store may be configured with, in bytes. */
    @WithDefault("262144")
    int maxEntryBytesCeiling();

    /** Where the embedded PostgreSQL keeps its data when no datasource URL is set. */
    @WithDefault(".engram")
    String dataDir();

    /** The embedded PostgreSQL. */
    Embedded embedded();

    /** Reading the journal. */
    Journal journal();

    /** Searching entries. */
    Search search();

    /**
     * How long a patch without If-Match keeps reading, editing and writing again, with a growing random pause,
     * while concurrent writes change its entry; past it the patch fails with 412.
     */
    @WithDefault("10s")
    Duration patchDeadline();

    interface Embedded {
        /** Start from an empty data directory, deleting what is there: for tests. */
        @WithDefault("false")
        boolean fresh();
    }

    interface Journal {
        /** Records a journal page holds when the request names no limit. */
        @WithDefault("100")
        int defaultLimit();

        /** The most records one journal page may hold. */
        @WithDefault("1000")
        int maxLimit();

        /** How often a live follower looks for writes made by other replicas. */
        @WithDefault("500ms")
        @WithName("follow-poll")
        Duration followPoll();
    }

    interface Search {
        /** Entries a search returns when the request names no limit. */
        @WithDefault("20")
        int defaultLimit();

        /** The most entries one search may return. */
        @WithDefault("200")
        int maxLimit();
    }
}
