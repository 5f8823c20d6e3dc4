-- Contexts (seed 004): one agent run's working memory, a resource of a store, journaled in the store's one journal.
-- One row per context: its configuration and everything it holds (texts, steps, compacted prefix, the tracker's
-- numbers) as jsonb, written whole by each change, which reads it under the store's row lock (taken with the seq),
-- so changes of one store, and so of one context, land in seq order. The state is JSON kept as text, not jsonb:
-- a system prompt holds NUL cache breaks, which jsonb cannot hold. steps is how many steps it holds.
CREATE TABLE context (
    store_id   text COLLATE "C" NOT NULL REFERENCES store (id),
    id         text COLLATE "C" NOT NULL,
    config     jsonb            NOT NULL,
    state      text             NOT NULL,
    steps      integer          NOT NULL,
    created_at timestamptz      NOT NULL,
    updated_at timestamptz      NOT NULL,
    PRIMARY KEY (store_id, id)
);

-- A context's tool-result cache: full outputs kept aside, content-addressed (hash is SHA-256 hex of tool NUL
-- content, or of tool NUL path NUL mtime NUL size for a file read); short_hash is the shortest prefix of hash, from
-- 4 hex digits, that no other entry of the context had when it was issued. It goes with its context.
CREATE TABLE tool_result (
    store_id    text COLLATE "C" NOT NULL,
    context_id  text COLLATE "C" NOT NULL,
    short_hash  text COLLATE "C" NOT NULL,
    hash        text COLLATE "C" NOT NULL,
    tool_name   text             NOT NULL,
    content     text             NOT NULL,
    file_backed boolean          NOT NULL,
    file_path   text             NOT NULL,
    file_mtime  bigint           NOT NULL,
    file_size   bigint           NOT NULL,
    PRIMARY KEY (store_id, context_id, short_hash),
    UNIQUE (store_id, context_id, hash),
    FOREIGN KEY (store_id, context_id) REFERENCES context (store_id, id) ON DELETE CASCADE
);
