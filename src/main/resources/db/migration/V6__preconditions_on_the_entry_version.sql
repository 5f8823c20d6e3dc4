-- Preconditions compare the entry's version, which covers its meta, not only its content hash: a write or forget
-- conditional on a version read before a change of meta alone used to land and silently undo that change.
-- The version is 'v:' and the hex SHA-256 of the UTF-8 text: the content hash, then for each meta key in byte order
-- a line feed, the key, '=' and the value. Keys are kebab-case and values hold no line break, so the text is
-- unambiguous. dev.engram.memory.Hash.version computes the same text; the store tests check that both agree.
CREATE FUNCTION engram_version(p_hash text, p_meta jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS
$$
SELECT 'v:' || encode(sha256(convert_to(p_hash || coalesce(
           (SELECT string_agg(E'\n' || m.key || '=' || m.value, '' ORDER BY m.key COLLATE "C")
            FROM jsonb_each_text(p_meta) AS m), ''), 'UTF8')), 'hex')
$$;

-- As in V1, but p_expect is the version the live entry must have ('' = must not exist), and EG412's DETAIL is the
-- version held ('' for none). p_base stays a content hash: the journal chains content hashes.
CREATE OR REPLACE FUNCTION engram_put(p_store text, p_default_limit integer, p_scope text, p_name text,
                                      p_content text, p_meta jsonb, p_hash text, p_search text, p_session text,
                                      p_expect text, p_base text)
    RETURNS TABLE (seq bigint, prev text, replaced text, at timestamptz)
    LANGUAGE plpgsql AS
$$
DECLARE
    v_seq     bigint;
    v_limit   integer;
    v_have    text;
    v_meta    jsonb;
    v_size    integer;
    v_version text;
    v_now     timestamptz := clock_timestamp();
BEGIN
    INSERT INTO store AS s (id, seq, max_entry_bytes) VALUES (p_store, 1, p_default_limit)
    ON CONFLICT (id) DO UPDATE SET seq = s.seq + 1
    RETURNING s.seq, s.max_entry_bytes INTO v_seq, v_limit;

    SELECT e.hash, e.meta, octet_length(e.content) INTO v_have, v_meta, v_size
    FROM entry e WHERE e.store_id = p_store AND e.scope = p_scope AND e.name = p_name;

    IF octet_length(p_content) > v_limit THEN
        RAISE EXCEPTION USING ERRCODE = 'EG413', MESSAGE = 'content over the store''s bound',
            DETAIL = v_limit || ' ' || coalesce(v_size, -1);
    END IF;
    IF p_expect IS NOT NULL THEN
        v_version := coalesce(engram_version(v_have, v_meta), '');
        IF v_version <> p_expect THEN
            RAISE EXCEPTION USING ERRCODE = 'EG412', MESSAGE = 'precondition failed', DETAIL = v_version;
        END IF;
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

-- As in V1, with p_expect a version and EG412's DETAIL the version held.
CREATE OR REPLACE FUNCTION engram_forget(p_store text, p_scope text, p_name text, p_session text, p_expect text,
                                         p_base text)
    RETURNS TABLE (seq bigint, content text, meta jsonb, hash text, at timestamptz)
    LANGUAGE plpgsql AS
$$
DECLARE
    v_seq     bigint;
    v_content text;
    v_meta    jsonb;
    v_hash    text;
    v_version text;
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
    IF p_expect IS NOT NULL THEN
        v_version := engram_version(v_hash, v_meta);
        IF v_version <> p_expect THEN
            RAISE EXCEPTION USING ERRCODE = 'EG412', MESSAGE = 'precondition failed', DETAIL = v_version;
        END IF;
    END IF;

    INSERT INTO journal (store_id, seq, scope, name, content, meta, hash, updated, deleted, prev, replaced,
                         session, at)
    VALUES (p_store, v_seq, p_scope, p_name, v_content, v_meta, v_hash, v_now, true, coalesce(p_base, v_hash),
            v_hash, p_session, v_now);

    RETURN QUERY SELECT v_seq, v_content, v_meta, v_hash, v_now;
END
$$;
