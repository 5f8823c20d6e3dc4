-- Engram's storage: one row per store (tenant), its live entries, and its append-only journal.
-- Names are compared byte by byte (COLLATE "C"), as the reference library sorts them.

CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;

CREATE TABLE store (
    id              text COLLATE "C" PRIMARY KEY,
    -- The last seq handed out. Bumping it takes the row lock that serialises one store's writers, so seqs are
    -- gapless and commit order is seq order.
    seq             bigint      NOT NULL DEFAULT 0,
    max_entry_bytes integer     NOT NULL CHECK (max_entry_bytes > 0),
    created_at      timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE entry (
    store_id    text COLLATE "C" NOT NULL REFERENCES store (id),
    scope       text COLLATE "C" NOT NULL,
    name        text COLLATE "C" NOT NULL,
    content     text        NOT NULL,
    meta        jsonb       NOT NULL DEFAULT '{}',
    hash        text        NOT NULL,
    updated     timestamptz NOT NULL,
    -- Name, meta values and content, case-folded by the service (dev.engram.memory.Match.text), one per line.
    search_text text        NOT NULL,
    PRIMARY KEY (store_id, scope, name)
);

-- Substring search within one store: the store leads the index, so one tenant's rows never widen another's scan.
CREATE INDEX entry_search ON entry USING gin (store_id, search_text gin_trgm_ops);

CREATE TABLE journal (
    store_id text COLLATE "C" NOT NULL REFERENCES store (id),
    seq      bigint      NOT NULL,
    scope    text COLLATE "C" NOT NULL,
    name     text COLLATE "C" NOT NULL,
    content  text        NOT NULL,
    meta     jsonb       NOT NULL DEFAULT '{}',
    hash     text        NOT NULL,
    updated  timestamptz NOT NULL,
    deleted  boolean     NOT NULL DEFAULT false,
    prev     text        NOT NULL DEFAULT '',
    replaced text        NOT NULL DEFAULT '',
    session  text        NOT NULL DEFAULT '',
    source   text        NOT NULL DEFAULT '',
    at       timestamptz NOT NULL,
    PRIMARY KEY (store_id, seq)
);

-- Every record of one entry, for its history.
CREATE INDEX journal_entry ON journal (store_id, scope, name, seq);

-- One write in one round trip. The store row is created on the first write with p_default_limit, and its seq
-- bumped, which locks it until commit; the live row is then read under that lock (each statement of a volatile
-- function sees what committed before it), checked, and written with its journal record. A refusal raises, which
-- rolls back the bump too, so a refused write leaves no trace and no gap:
--   EG413 content over the store's bound, DETAIL '<limit> <stored size or -1>'
--   EG412 precondition failed, DETAIL '<hash held, or empty>'
-- p_expect is the hash the live entry must have ('' = must not exist), NULL for an unconditional write;
-- p_base is the hash the caller built the write on, NULL to record the hash the store held.
CREATE FUNCTION engram_put(p_store text, p_default_limit integer, p_scope text, p_name text, p_content text,
                           p_meta jsonb, p_hash text, p_search text, p_session text, p_expect text, p_base text)
    RETURNS TABLE (seq bigint, prev text, replaced text, at timestamptz)
    LANGUAGE plpgsql AS
$$
DECLARE
    v_seq   bigint;
    v_limit integer;
    v_have  text;
    v_size  integer;
    v_now   timestamptz := clock_timestamp();
BEGIN
    INSERT INTO store AS s (id, seq, max_entry_bytes) VALUES (p_store, 1, p_default_limit)
    ON CONFLICT (id) DO UPDATE SET seq = s.seq + 1
    RETURNING s.seq, s.max_entry_bytes INTO v_seq, v_limit;

    SELECT e.hash, octet_length(e.content) INTO v_have, v_size
    FROM entry e WHERE e.store_id = p_store AND e.scope = p_scope AND e.name = p_name;

    IF octet_length(p_content) > v_limit THEN
        RAISE EXCEPTION USING ERRCODE = 'EG413', MESSAGE = 'content over the store''s bound',
            DETAIL = v_limit || ' ' || coalesce(v_size, -1);
    END IF;
    IF p_expect IS NOT NULL AND coalesce(v_have, '') <> p_expect THEN
        RAISE EXCEPTION USING ERRCODE = 'EG412', MESSAGE = 'precondition failed', DETAIL = coalesce(v_have, '');
    END IF;

    INSERT INTO entry AS e (store_id, scope, name, content, meta, hash, updated, search_text)
    VALUES (p_store, p_scope, p_name, p_content, p_meta, p_hash, v_now, p_search)
    ON CONFLICT (store_id, scope, name) DO UPDATE
        SET content = excluded.content, meta = excluded.meta, hash = excluded.hash,
            updated = excluded.updated, search_text = excluded.search_text;

    INSERT INTO journal (store_id, seq, scope, name, content, meta, hash, updated, prev, replaced, session, at)
    VALUES (p_store, v_seq, p_scope, p_name, p_content, p_meta, p_hash, v_now,
            coalesce(p_base, v_have, ''), coalesce(v_have, ''), p_session, v_now);

    RETURN QUERY SELECT v_seq, coalesce(p_base, v_have, ''), coalesce(v_have, ''), v_now;
END
$$;

-- Forget in one round trip: bump the seq, remove the live row, journal a tombstone keeping its last content.
--   EG404 no such store or no live entry
--   EG412 precondition failed, DETAIL '<hash held>'
-- p_expect and p_base as for engram_put.
CREATE FUNCTION engram_forget(p_store text, p_scope text, p_name text, p_session text, p_expect text,
                              p_base text)
    RETURNS TABLE (seq bigint, content text, meta jsonb, hash text, at timestamptz)
    LANGUAGE plpgsql AS
$$
DECLARE
    v_seq     bigint;
    v_content text;
    v_meta    jsonb;
    v_hash    text;
    v_now     timestamptz := clock_timestamp();
BEGIN
    UPDATE store AS s SET seq = s.seq + 1 WHERE s.id = p_store RETURNING s.seq INTO v_seq;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such store';
    END IF;

    DELETE FROM entry e WHERE e.store_id = p_store AND e.scope = p_scope AND e.name = p_name
    RETURNING e.content, e.meta, e.hash INTO v_content, v_meta, v_hash;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such entry';
    END IF;
    IF p_expect IS NOT NULL AND v_hash <> p_expect THEN
        RAISE EXCEPTION USING ERRCODE = 'EG412', MESSAGE = 'precondition failed', DETAIL = v_hash;
    END IF;

    INSERT INTO journal (store_id, seq, scope, name, content, meta, hash, updated, deleted, prev, replaced,
                         session, at)
    VALUES (p_store, v_seq, p_scope, p_name, v_content, v_meta, v_hash, v_now, true, coalesce(p_base, v_hash),
            v_hash, p_session, v_now);

    RETURN QUERY SELECT v_seq, v_content, v_meta, v_hash, v_now;
END
$$;
