-- Quotas.
--
-- A store holds at most engram.max_entries_per_store live entries (a setting each Engram connection sets from
-- engram.limits.entries-per-store; 10000 when a connection did not, 0 for no limit). A write that would create one
-- more raises
--   EG429 the store holds its most entries, DETAIL the limit
-- Updates of existing entries are never refused for it. The count runs only when an entry is created, under the
-- store's row lock that engram_put already holds, so two creates cannot both take the last place.
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
    v_max     integer;
    v_count   integer;
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

    IF v_have IS NULL THEN
        v_max := coalesce(nullif(current_setting('engram.max_entries_per_store', true), '')::integer, 10000);
        IF v_max > 0 THEN
            SELECT count(*) INTO v_count FROM (SELECT 1 FROM entry e WHERE e.store_id = p_store LIMIT v_max) AS x;
            IF v_count >= v_max THEN
                RAISE EXCEPTION USING ERRCODE = 'EG429', MESSAGE = 'the store holds its most entries',
                    DETAIL = v_max::text;
            END IF;
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


-- The stores each key created, for the quota of stores per key. A key claims a store just before its first write
-- to a store that does not exist; a claim whose store never came to be stops counting after a minute.
CREATE TABLE store_creator (
    store_id   text COLLATE "C" PRIMARY KEY,
    creator    text COLLATE "C" NOT NULL,
    claimed_at timestamptz      NOT NULL DEFAULT now()
);
CREATE INDEX store_creator_by_creator ON store_creator (creator);

-- Claims p_store for p_creator unless the creator already made p_max stores (live ones, or claims of the last
-- minute). True when the store is the creator's to create now: claimed, or claimed before by the same creator, or
-- existing by now. Serialised per creator by an advisory lock.
CREATE FUNCTION engram_claim_store(p_store text, p_creator text, p_max integer) RETURNS boolean
    LANGUAGE plpgsql AS
$$
DECLARE
    v_count integer;
BEGIN
    IF EXISTS (SELECT 1 FROM store s WHERE s.id = p_store)
       OR EXISTS (SELECT 1 FROM store_creator c WHERE c.store_id = p_store AND c.creator = p_creator) THEN
        RETURN true;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtextextended('store_creator/' || p_creator, 0));
    SELECT count(*) INTO v_count FROM store_creator c
    WHERE c.creator = p_creator
      AND (c.claimed_at > now() - interval '1 minute' OR EXISTS (SELECT 1 FROM store s WHERE s.id = c.store_id));
    IF v_count >= p_max THEN
        RETURN false;
    END IF;
    INSERT INTO store_creator (store_id, creator) VALUES (p_store, p_creator)
    ON CONFLICT (store_id) DO UPDATE SET creator = excluded.creator, claimed_at = now()
    WHERE NOT EXISTS (SELECT 1 FROM store s WHERE s.id = excluded.store_id);
    RETURN true;
END
$$;
