-- The write functions of entries (ADR 0001: one round trip per write), in their one current definition: a
-- repeatable migration, applied after every V migration and again whenever this file changes. Each takes the
-- store's lock and its record's seq in one statement with engram_entries_take, which also moves the store's entries
-- version on (engram_erase, which may end without a record, the lock alone with engram_store_lock) and appends its
-- record with engram_journal_append (R__journal.sql). Keep each function's name, arguments and result as they are: the Java callers and the V
-- migrations' history rely on them.

-- An entry's version, which preconditions compare: 'v:' and the hex SHA-256 of the UTF-8 text of the content hash,
-- then for each meta key in byte order a line feed, the key, '=' and the value. Keys are kebab-case and values hold
-- no line break, so the text is unambiguous. dev.engram.entries.Hash.version computes the same text; the store tests
-- check that both agree.
CREATE OR REPLACE FUNCTION engram_version(p_hash text, p_meta jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS
$$
SELECT 'v:' || encode(sha256(convert_to(p_hash || coalesce(
           (SELECT string_agg(E'\n' || m.key || '=' || m.value, '' ORDER BY m.key COLLATE "C")
            FROM jsonb_each_text(p_meta) AS m), ''), 'UTF8')), 'hex')
$$;

-- The store's lock and its record's seq in one statement, as engram_store_take (R__journal.sql) takes them, for a
-- write that changes a live entry: the same statement moves the store's entries version on (V18), which a kept render
-- compares, so the version costs the write no statement of its own. With p_default_limit null a missing store is left
-- missing and the answer is a row of nulls.
CREATE OR REPLACE FUNCTION engram_entries_take(p_store text, p_default_limit integer)
    RETURNS store
    LANGUAGE plpgsql AS
$$
DECLARE
    v_store store;
BEGIN
    IF p_default_limit IS NULL THEN
        UPDATE store AS s SET seq = s.seq + 1, entries_version = s.entries_version + 1 WHERE s.id = p_store
        RETURNING s.* INTO v_store;
    ELSE
        INSERT INTO store AS s (id, seq, max_entry_bytes, entries_version) VALUES (p_store, 1, p_default_limit, 1)
        ON CONFLICT (id) DO UPDATE SET seq = s.seq + 1, entries_version = s.entries_version + 1
        RETURNING s.* INTO v_store;
    END IF;
    RETURN v_store;
END
$$;

-- One write in one round trip. The store row is created on the first write with p_default_limit; its lock is taken
-- first, so the live row read next is what the store holds until the commit; the write is checked, then made with
-- its journal record. A refusal raises, which rolls everything back, so a refused write leaves no trace and no gap:
--   EG413 content over the store's bound, DETAIL '<limit> <stored size or -1>'
--   EG412 precondition failed, DETAIL '<version held, or empty>'
--   EG429 the store holds its most entries, DETAIL the limit
-- p_expect is the version the live entry must have ('' = must not exist; NULL = unconditional); p_base is the
-- content hash the caller built the write on, NULL to record the hash the store held (the journal chains content
-- hashes). A store holds at most engram.max_entries_per_store live entries (a setting each Engram connection sets
-- from engram.limits.entries-per-store; 10000 when a connection did not, 0 for no limit); only a create checks the
-- store's count of them (store.entries), under the store's lock, so two creates cannot both take the last place. The
-- count is kept here and in engram_forget and engram_erase (V17): a create adds one, an update leaves the store's row
-- as engram_entries_take left it.
CREATE OR REPLACE FUNCTION engram_put(p_store text, p_default_limit integer, p_scope text, p_name text,
                                      p_content text, p_meta jsonb, p_hash text, p_search text, p_session text,
                                      p_expect text, p_base text, p_by text DEFAULT '')
    RETURNS TABLE (seq bigint, prev text, replaced text, at timestamptz)
    LANGUAGE plpgsql AS
$$
DECLARE
    v_seq     bigint;
    v_store   store;
    v_have    text;
    v_meta    jsonb;
    v_size    integer;
    v_version text;
    v_max     integer;
    v_now     timestamptz := clock_timestamp();
BEGIN
    v_store := engram_entries_take(p_store, p_default_limit);

    SELECT e.hash, e.meta, octet_length(e.content) INTO v_have, v_meta, v_size
    FROM entry e WHERE e.store_id = p_store AND e.scope = p_scope AND e.name = p_name;

    IF octet_length(p_content) > v_store.max_entry_bytes THEN
        RAISE EXCEPTION USING ERRCODE = 'EG413', MESSAGE = 'content over the store''s bound',
            DETAIL = v_store.max_entry_bytes || ' ' || coalesce(v_size, -1);
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
            -- The store's count of live entries (store.entries, kept by these functions), read with its lock.
            IF v_store.entries >= v_max THEN
                RAISE EXCEPTION USING ERRCODE = 'EG429', MESSAGE = 'the store holds its most entries',
                    DETAIL = v_max::text;
            END IF;
        END IF;
        UPDATE store s SET entries = s.entries + 1 WHERE s.id = p_store;
    END IF;

    INSERT INTO entry AS e (store_id, scope, name, content, meta, hash, updated, search_text)
    VALUES (p_store, p_scope, p_name, p_content, p_meta, p_hash, v_now, p_search)
    ON CONFLICT (store_id, scope, name) DO UPDATE
        SET content = excluded.content, meta = excluded.meta, hash = excluded.hash,
            updated = excluded.updated, search_text = excluded.search_text;

    v_seq := engram_journal_append(p_store => p_store, p_kind => 'entry', p_scope => p_scope, p_name => p_name,
                                   p_content => p_content, p_meta => p_meta, p_hash => p_hash, p_at => v_now,
                                   p_prev => coalesce(p_base, v_have, ''), p_replaced => coalesce(v_have, ''),
                                   p_session => p_session, p_seq => v_store.seq, p_by => p_by);

    RETURN QUERY SELECT v_seq, coalesce(p_base, v_have, ''), coalesce(v_have, ''), v_now;
END
$$;

-- Forget in one round trip: under the store's lock, remove the live row and journal a tombstone keeping its last
-- content.
--   EG404 no such store or no live entry
--   EG412 precondition failed, DETAIL '<version held>'
-- p_expect and p_base as for engram_put.
CREATE OR REPLACE FUNCTION engram_forget(p_store text, p_scope text, p_name text, p_session text, p_expect text,
                                         p_base text, p_by text DEFAULT '')
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
    v_seq := (engram_entries_take(p_store, NULL)).seq;
    IF v_seq IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such store';
    END IF;

    DELETE FROM entry e WHERE e.store_id = p_store AND e.scope = p_scope AND e.name = p_name
    RETURNING e.content, e.meta, e.hash INTO v_content, v_meta, v_hash;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such entry';
    END IF;
    UPDATE store s SET entries = s.entries - 1 WHERE s.id = p_store;
    IF p_expect IS NOT NULL THEN
        v_version := engram_version(v_hash, v_meta);
        IF v_version <> p_expect THEN
            RAISE EXCEPTION USING ERRCODE = 'EG412', MESSAGE = 'precondition failed', DETAIL = v_version;
        END IF;
    END IF;

    v_seq := engram_journal_append(p_store => p_store, p_kind => 'entry', p_scope => p_scope, p_name => p_name,
                                   p_content => v_content, p_meta => v_meta, p_hash => v_hash, p_at => v_now,
                                   p_deleted => true, p_prev => coalesce(p_base, v_hash), p_replaced => v_hash,
                                   p_session => p_session, p_seq => v_seq, p_by => p_by);

    RETURN QUERY SELECT v_seq, v_content, v_meta, v_hash, v_now;
END
$$;

-- Takes the lock of one caller's key in one store until the transaction ends, and returns the seq and reply the key
-- was recorded with, or no row when it was not. The lock serialises requests under one key, so that of concurrent
-- ones exactly one writes and the others, waiting here, find its row once it commits (each statement of a volatile
-- function sees what committed before it). A key sent with another request raises
--   EG422 idempotency key reused
-- The lock is an advisory one on a hash of the key; two keys with one hash only wait for each other.
CREATE OR REPLACE FUNCTION engram_key_seen(p_store text, p_caller text, p_key text, p_fingerprint text)
    RETURNS TABLE (seq bigint, reply text)
    LANGUAGE plpgsql AS
$$
DECLARE
    v_fingerprint text;
    v_seq         bigint;
    v_reply       text;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_store || '/' || p_caller || '/' || p_key, 0));
    SELECT i.fingerprint, i.seq, i.reply INTO v_fingerprint, v_seq, v_reply
    FROM idempotency i WHERE i.store_id = p_store AND i.caller = p_caller AND i.key = p_key;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF v_fingerprint <> '' AND v_fingerprint <> p_fingerprint THEN
        RAISE EXCEPTION USING ERRCODE = 'EG422', MESSAGE = 'idempotency key reused';
    END IF;
    RETURN QUERY SELECT v_seq, v_reply;
END
$$;

-- engram_put made at most once under a key, in one round trip: the key's lock, then either the record the key
-- was recorded with (replayed = true, nothing written) or engram_put and the key's row in the same transaction. A
-- refusal of engram_put (EG412, EG413, EG429) rolls back the key's row too, so a refused write records no key.
CREATE OR REPLACE FUNCTION engram_put_once(p_caller text, p_key text, p_fingerprint text, p_reply text,
                                           p_store text, p_default_limit integer, p_scope text, p_name text,
                                           p_content text, p_meta jsonb, p_hash text, p_search text,
                                           p_session text, p_expect text, p_base text, p_by text DEFAULT '')
    RETURNS TABLE (replayed boolean, reply text, rec journal)
    LANGUAGE plpgsql AS
$$
DECLARE
    v_seq   bigint;
    v_reply text;
BEGIN
    SELECT k.seq, k.reply INTO v_seq, v_reply FROM engram_key_seen(p_store, p_caller, p_key, p_fingerprint) k;
    IF v_seq IS NULL THEN
        SELECT w.seq INTO v_seq FROM engram_put(p_store, p_default_limit, p_scope, p_name, p_content, p_meta,
                                                 p_hash, p_search, p_session, p_expect, p_base, p_by) w;
        INSERT INTO idempotency (store_id, caller, key, fingerprint, seq, reply)
        VALUES (p_store, p_caller, p_key, p_fingerprint, v_seq, p_reply);
        RETURN QUERY SELECT false, p_reply, j FROM journal j WHERE j.store_id = p_store AND j.seq = v_seq;
    ELSE
        RETURN QUERY SELECT true, v_reply, j FROM journal j WHERE j.store_id = p_store AND j.seq = v_seq;
    END IF;
END
$$;

-- engram_forget made at most once under a key, as engram_put_once is; EG404 and EG412 record no key.
CREATE OR REPLACE FUNCTION engram_forget_once(p_caller text, p_key text, p_fingerprint text, p_reply text,
                                              p_store text, p_scope text, p_name text, p_session text,
                                              p_expect text, p_base text, p_by text DEFAULT '')
    RETURNS TABLE (replayed boolean, reply text, rec journal)
    LANGUAGE plpgsql AS
$$
DECLARE
    v_seq   bigint;
    v_reply text;
BEGIN
    SELECT k.seq, k.reply INTO v_seq, v_reply FROM engram_key_seen(p_store, p_caller, p_key, p_fingerprint) k;
    IF v_seq IS NULL THEN
        SELECT w.seq INTO v_seq FROM engram_forget(p_store, p_scope, p_name, p_session, p_expect, p_base, p_by) w;
        INSERT INTO idempotency (store_id, caller, key, fingerprint, seq, reply)
        VALUES (p_store, p_caller, p_key, p_fingerprint, v_seq, p_reply);
        RETURN QUERY SELECT false, p_reply, j FROM journal j WHERE j.store_id = p_store AND j.seq = v_seq;
    ELSE
        RETURN QUERY SELECT true, v_reply, j FROM journal j WHERE j.store_id = p_store AND j.seq = v_seq;
    END IF;
END
$$;

-- Erases one entry in one transaction under the store's lock (docs/adr/0005-erasure-rewrites-the-journal.md):
-- deletes the live row, appends the erasure record (a tombstone with no content and no hash, replacing the live
-- hash, '' when the entry was not live, with {"by", "reason"} in erasure), then blanks the content and meta of every
-- other record of the entry not blank yet (seq, hashes, prev, replaced, session and times stay, so the journal stays
-- gapless and its chain and lost-update audit still hold) and the fingerprints and replies of the keys those records
-- were written under. With nothing left to erase (no live row, every record blank) it writes nothing and returns the
-- last erasure record. Raises
--   EG404 no such store, or the store never held the entry
CREATE OR REPLACE FUNCTION engram_erase(p_store text, p_scope text, p_name text, p_by text, p_reason text)
    RETURNS SETOF journal
    LANGUAGE plpgsql AS
$$
DECLARE
    v_seq  bigint;
    v_hash text;
    v_now  timestamptz := clock_timestamp();
BEGIN
    IF (engram_store_lock(p_store, NULL)).id IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such store';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM journal j WHERE j.store_id = p_store AND j.scope = p_scope AND j.name = p_name
                                             AND j.kind = 'entry') THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such entry';
    END IF;

    DELETE FROM entry e WHERE e.store_id = p_store AND e.scope = p_scope AND e.name = p_name
    RETURNING e.hash INTO v_hash;
    IF v_hash IS NULL AND NOT EXISTS (SELECT 1 FROM journal j WHERE j.store_id = p_store AND j.scope = p_scope
                                      AND j.name = p_name AND j.kind = 'entry' AND j.erased_by IS NULL
                                      AND j.erasure IS NULL) THEN
        RETURN QUERY SELECT j.* FROM journal j WHERE j.store_id = p_store AND j.scope = p_scope AND j.name = p_name
                                                 AND j.erasure IS NOT NULL ORDER BY j.seq DESC LIMIT 1;
        RETURN;
    END IF;
    IF v_hash IS NOT NULL THEN
        UPDATE store s SET entries = s.entries - 1, entries_version = s.entries_version + 1 WHERE s.id = p_store;
    END IF;

    v_seq := engram_journal_append(p_store => p_store, p_kind => 'entry', p_scope => p_scope, p_name => p_name,
                                   p_at => v_now, p_deleted => true, p_prev => coalesce(v_hash, ''),
                                   p_replaced => coalesce(v_hash, ''),
                                   p_erasure => jsonb_build_object('by', p_by, 'reason', p_reason), p_by => p_by);
    UPDATE journal j SET content = '', meta = '{}', erased_by = v_seq
    WHERE j.store_id = p_store AND j.scope = p_scope AND j.name = p_name AND j.kind = 'entry'
      AND j.erased_by IS NULL AND j.erasure IS NULL;
    UPDATE idempotency i SET fingerprint = '', reply = ''
    WHERE i.store_id = p_store AND i.seq IN (SELECT j.seq FROM journal j WHERE j.store_id = p_store
                                             AND j.scope = p_scope AND j.name = p_name AND j.erased_by = v_seq);

    RETURN QUERY SELECT j.* FROM journal j WHERE j.store_id = p_store AND j.seq = v_seq;
END
$$;
