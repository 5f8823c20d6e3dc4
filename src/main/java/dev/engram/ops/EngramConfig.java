package dev.engram.ops;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

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

    /** How many times a patch reads and writes again after a concurrent write changed its entry. */
    @WithDefault("8")
    int patchAttempts();

    /**
     * The longest a statement of Engram's may run in PostgreSQL before it is cancelled (and the request answered
     * 503), in PostgreSQL's syntax: {@code 5s}, {@code 500ms}, {@code 1min}; {@code 0} for no limit. Set in
     * application.properties, where the datasource's {@code options} take it.
     */
    String statementTimeout();

    /** The HTTP edge. */
    Http http();

    /** MCP over HTTP. */
    Mcp mcp();

    interface Embedded {
        /** Start from an empty data directory, deleting what is there: for tests. */
        @WithDefault("false")
        boolean fresh();

        /** How long the embedded PostgreSQL may stay down, while it is started again, before liveness is DOWN. */
        @WithDefault("30s")
        Duration restartGrace();
    }

    interface Http {
        /**
         * How long a client may take to send a request's body once its headers arrived; a body still incomplete
         * then is answered 408 and its connection closed.
         */
        @WithDefault("10s")
        Duration bodyTimeout();
    }

    interface Mcp {
        /**
         * The origins ({@code https://app.example.com}) whose browser pages may call {@code /mcp}; a request with
         * any other {@code Origin} header is refused with 403. None by default; clients that send no Origin
         * (agents, SDKs, curl) are not affected.
         */
        Optional<List<String>> allowedOrigins();
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
