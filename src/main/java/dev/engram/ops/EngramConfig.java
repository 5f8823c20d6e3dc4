package dev.engram.ops;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
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

    /**
     * How long after start-up the JVM collects its heap once, so that with the pod's {@code -XX:MaxHeapFreeRatio} it
     * gives back to the system the heap start-up needed and an idle service does not; {@code 0} for never.
     */
    @WithDefault("200ms")
    Duration collectAfterStart();

    /** Reading the journal. */
    Journal journal();

    /** Searching entries. */
    Search search();

    /** Listing a scope's entries, a page at a time. */
    ListPages list();

    /** The console (docs/console.md). */
    Console console();

    /** Rendering the block. */
    Render render();
    /**
     * The operator's key ({@code ENGRAM_ADMIN_KEY}), at least 32 characters. Unset: Engram generates one at its first
     * start and keeps it in {@code <data-dir>/admin-key}, readable by its owner only.
     */
    Optional<String> adminKey();

    /** Keys, tokens and which endpoints are open. */
    AuthConfig auth();

    /** Idempotency keys. */
    Idempotency idempotency();

    /** Rate limits and quotas per key. */
    Limits limits();

    /**
     * How long a patch without If-Match keeps reading, editing and writing again, with a growing random pause,
     * while concurrent writes change its entry; past it the patch fails with 412.
     */
    @WithDefault("10s")
    Duration patchDeadline();

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

    /** Reflection: consolidating a bank's facts into observations. */
    Reflect reflect();

    /** Contexts: an agent run's working memory and its compaction. */
    Context context();

    /** The embedding model hybrid recall ranks memories with. */
    Embedding embedding();

    /**
     * The embedding model: {@code engram.embedding.*}. The local model runs in the process (no set-up, no network);
     * a remote one is called over HTTP, one call for each {@code batch-size} texts, without retries.
     */
    interface Embedding {
        /**
         * Which model embeds: {@code local} (all-MiniLM-L6-v2, quantized, in the process; not in a native image),
         * {@code openai} (OpenAI and every server speaking its {@code /v1/embeddings}: vLLM, LM Studio, Ollama's
         * {@code /v1}), {@code ollama} (its native {@code /api/embed}) or {@code none} (recall ranks lexically).
         * Unset: {@code local}, and {@code none} in a native image.
         */
        Optional<String> provider();

        /**
         * The model's name: {@code local} has one ({@code all-minilm-l6-v2-q}, its default); {@code openai} and
         * {@code ollama} need it.
         */
        Optional<String> model();

        /** The API's base URL; unset: the provider's public one ({@code http://localhost:11434} for Ollama). */
        Optional<String> baseUrl();

        /** The API key, when the provider takes one (sent to Ollama as a bearer token, for a proxy in front of it). */
        Optional<String> apiKey();

        /**
         * The length of the model's vectors; for OpenAI's text-embedding-3 models it also asks for that length.
         * Unset: the local model's 384, and for a remote model the length of its first answer, held from then on.
         */
        Optional<Integer> dimensions();

        /** How long one call to a remote model may take. */
        @WithDefault("10s")
        Duration timeout();

        /** The most texts one call to the model carries; more are sent in several calls. */
        @WithDefault("32")
        int batchSize();

        /**
         * Whether the local model loads from application start (on a background thread) rather than at its first
         * use. Unset: at first use, so a replica that never embeds (entries and contexts only) never holds the model
         * (about 130 MB resident), and the first save or recall that embeds waits for the load (1-2 s).
         */
        @WithDefault("false")
        boolean preload();
    }

    /** A store as files: its export and import as a tar.gz ({@code GET/POST /v1/stores/{store}/export, /import}). */
    Files files();

    /**
     * The limits of an import ({@code engram.files.*}), each checked while the archive is read, before anything is
     * written; an archive over one is refused 413 naming the member and the limit. An import holds its archive
     * unpacked in the heap while it checks and writes it, so a replica runs one import at a time.
     */
    interface Files {
        /**
         * The most bytes the archive may hold once ungzipped (the tar stream), against a gzip bomb; an export of a
         * store of 10,000 entries of 2 KB is about 68 MB (each entry's content is in its file and in both journals).
         */
        @WithDefault("134217728")
        long maxArchiveBytes();

        /**
         * The most bytes an import's body (the gzip) may have; the server's HTTP limit applies to every other body.
         * A larger one is refused 413 before it is read (declared) or as soon as it passes the limit (chunked).
         */
        @WithDefault("16777216")
        long maxUploadBytes();

        /** The most members (files and directories) the archive may hold. */
        @WithDefault("50000")
        int maxMembers();

        /** The most segments a member's path may have ({@code _engram/documents/a/b.md} has four). */
        @WithDefault("16")
        int maxPathDepth();

        /** The most UTF-8 bytes a member's path may have. */
        @WithDefault("1100")
        int maxPathBytes();
    }

    /** The model tools (REST and MCP). */
    Tools tools();

    interface Tools {
        /**
         * The order memory_search lists its matches in: {@code name} (by scope, then name) or {@code relevance}
         * (best first, as {@code order=relevance} on a search); a tool call's {@code search_order}, or an MCP
         * connection's, overrides it.
         */
        @WithDefault("name")
        String searchOrder();
    }

    interface Context {
        /**
         * The chat model that summarizes for the {@code summarization} and {@code hierarchical} strategies (under
         * {@code engram.context.summarizer.*}: provider, model, base-url, api-key, timeout, max-tokens, as for
         * reflection). Without a model there is no summarizer: steps get the fallback texts, and conversation
         * compaction with those strategies is refused.
         */
        SummarizerSettings summarizer();
    }

    /** The context summarizer: a chat model's settings, and how many summarizations run at once. */
    interface SummarizerSettings extends Llm {
        /**
         * Compactions that ask the model one replica runs at once (stored contexts' and {@code POST /v1/compact}'s);
         * one more is answered 503 with Retry-After (a compaction may take as long as its model calls).
         */
        @WithDefault("4")
        int concurrency();

        /**
         * How many blocks of one compaction are summarized at once; 1 asks for one block after the other, as the
         * reference does. The blocks' order in the prompt never depends on it.
         */
        @WithDefault("4")
        int parallelBlocks();
    }

    interface Reflect {
        /**
         * The reflector a reflect that names none uses: {@code llm} or {@code deterministic}. Unset: {@code llm} when
         * a model is configured, else {@code deterministic}.
         */
        Optional<String> reflector();

        /** The most new facts one reflection sends, oldest first; the rest wait for the next. */
        @WithDefault("200")
        int maxFacts();

        /** Reflections one replica runs at once; one more is answered 503 (a model call can take a minute). */
        @WithDefault("4")
        int concurrency();

        /** The chat model of the {@code llm} reflector. */
        Llm llm();
    }

    /** A chat model's settings: {@code engram.reflect.llm}, {@code engram.context.summarizer}. */
    interface Llm {
        /**
         * Which API the model speaks: {@code openai} (OpenAI and every OpenAI-compatible server: vLLM, LM Studio,
         * Ollama's {@code /v1}), {@code anthropic} or {@code ollama} (its native API).
         */
        @WithDefault("openai")
        String provider();

        /** The model's name, such as {@code gpt-4o-mini}; the model is used only when it is set. */
        Optional<String> model();

        /** The API's base URL; unset: the provider's public one ({@code http://localhost:11434} for Ollama). */
        Optional<String> baseUrl();

        /** The API key, when the provider takes one. */
        Optional<String> apiKey();

        /** How long one model call may take, its retry included: the deadline covers every attempt. */
        @WithDefault("60s")
        Duration timeout();

        /**
         * The longest {@code Retry-After} a provider's 429 or 5xx is waited for before the one retry; a longer one
         * fails the call at once (so does one that would end past the timeout).
         */
        @WithDefault("10s")
        Duration retryAfterMax();

        /**
         * Whether an OpenAI-compatible model is a reasoning model, sent no temperature and its bound as
         * {@code max_completion_tokens}; unset: by its name (o1, o3, o4-mini, gpt-5...).
         */
        Optional<Boolean> reasoning();

        /** The longest answer the model may write, in tokens (Anthropic requires a bound). */
        @WithDefault("4096")
        int maxTokens();
    }

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

        /**
         * How long a client may take to send a request's line and headers, from the moment its connection opens or
         * its next request's first byte arrives; a head still incomplete then is answered 408 and its connection
         * closed. {@code 0} turns the deadline off.
         */
        @WithDefault("10s")
        Duration headerTimeout();

        /**
         * The largest request body, in bytes, of every route but an import's (its own is
         * {@code engram.files.max-upload-bytes}); a larger one is refused 413 before it is read when its length is
         * declared, as soon as it passes the limit when it comes in chunks. Quarkus's own limit
         * ({@code quarkus.http.limits.max-body-size}) is set to the import's, the larger, so this one decides.
         */
        @WithDefault("1048576")
        long maxBodyBytes();
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

        /**
         * How often, at most, this replica tells the others (PostgreSQL NOTIFY) which journals its writes moved; a
         * follower on another replica sees a write within about this long.
         */
        @WithDefault("20ms")
        Duration notifyInterval();

        /** The most live followers (server-sent event streams) one replica serves at once. */
        @WithDefault("256")
        int maxFollowers();

        /** How many threads read the journal for live followers; sends to followers do not hold them. */
        @WithDefault("4")
        int followerThreads();
    }

    interface ListPages {
        /** Entries a page holds when the request names no limit. */
        @WithDefault("100")
        int defaultLimit();

        /** The most entries one page may hold. */
        @WithDefault("1000")
        int maxLimit();
    }

    interface Console {
        /** How long a console session lasts after its sign-in at most (a JWT's session ends with the token). */
        @WithDefault("12h")
        Duration sessionTtl();

        /** Rows on one page of the console's lists (stores, entries, journal records, memories, steps). */
        @WithDefault("50")
        int pageSize();
    }

    interface Render {
        /** The largest block a render may be asked for ({@code max_total_bytes}), in bytes. */
        @WithDefault("1048576")
        int maxTotalBytesCeiling();

        /**
         * How much of rendered blocks a replica keeps to answer renders of stores whose entries have not changed
         * since, in bytes (about twice each block's size); 0 keeps none, and every render reads its entries.
         */
        @WithDefault("8388608")
        long cacheBytes();
    }

    /** What one key may use; each limit is per key (the operator key is exempt) and counted on each replica. */
    interface Limits {
        /** Requests a second a key may send to one replica, sustained; 0 turns the rate limit off. */
        @WithDefault("100")
        double requestsPerSecond();

        /** Requests a key may send at once before the rate applies. */
        @WithDefault("200")
        int burst();

        /** Stores a key may create (by its first write to a store that does not exist). */
        @WithDefault("1000")
        int storesPerKey();

        /** Live entries a store may hold; a write that would create one more is refused. */
        @WithDefault("10000")
        int entriesPerStore();

        /** Memories a store may hold; a save that would create one more is refused (saving over one never is). */
        @WithDefault("100000")
        int memoriesPerStore();

        /** Live documents a store may hold; a create that would make one more is refused (updates never are). */
        @WithDefault("10000")
        int documentsPerStore();

        /** MCP sessions a key may hold open on one replica (streamable sessions and legacy SSE connections). */
        @WithDefault("64")
        int mcpSessionsPerKey();

        /** Live journal followers a key may hold on one replica. */
        @WithDefault("16")
        int followersPerKey();

        /**
         * The most bytes of content one page carries (entries, journal records, lost updates, search hits, memories),
         * counted as stored, before JSON escaping; a page that reaches it ends early with its continuation. Its first
         * item is always sent, whatever its size.
         */
        @WithDefault("8388608")
        int pageBytes();
    }

    interface Idempotency {
        /**
         * How long a write's Idempotency-Key is kept: a retry within it is answered with the first result; after it
         * (and the next sweep, once a minute) the key is forgotten and a retry writes again.
         */
        @WithDefault("24h")
        Duration retention();
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
