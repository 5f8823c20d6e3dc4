-- Idempotency keys, recorded in the transaction of the write they were sent with, and erasure, the one operation
-- that changes journal records already written (docs/adr/0005-erasure-rewrites-the-journal.md).

-- One row per write made under an Idempotency-Key: the key of one caller in one store, a fingerprint of the request
-- it came with, the journal record the write appended, and what the first answer said besides that record (a tool's
-- text; '' for none). No row refers to store: a key is recorded in the transaction that may create the store, and
-- rows expire after engram.idempotency.retention (dev.engram.store.pg.PgIdempotencySweep).
CREATE TABLE idempotency (
    store_id    text COLLATE "C" NOT NULL,
    caller      text COLLATE "C" NOT NULL,
    key         text COLLATE "C" NOT NULL,
    -- '' once the write was erased: the request cannot be checked any more, and a retry is answered with the blank
    -- record.
    fingerprint text        NOT NULL,
    seq         bigint      NOT NULL,
    reply       text        NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (store_id, caller, key)
);

-- The sweep deletes the oldest rows, a bounded batch at a time.
CREATE INDEX idempotency_created ON idempotency (created_at);

-- Erasure. On a record whose content and meta were erased: the seq of the erasure record that did it. On an erasure
-- record: {"by": caller, "reason": text}. Both NULL on every other record. Adding a nullable column rewrites nothing.
ALTER TABLE journal ADD COLUMN erased_by bigint;
ALTER TABLE journal ADD COLUMN erasure jsonb;

-- Takes the lock of one caller's key in one store until the transaction ends, and returns the seq and reply the key
-- was recorded with, or no row when it was not. The lock serialises requests under one key, so that of concurrent
-- ones exactly one writes and the others, waiting here, find its row once it commits (each statement of a volatile
-- function sees what committed before it). A key sent with another request raises
--   EG422 idempotency key reused
-- The lock is an advisory one on a hash of the key; two keys with one hash only wait for each other.
CREATE FUNCTION engram_key_seen(p_store text, p_caller text, p_key text, p_fingerprint text)
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
-- refusal of engram_put (EG412, EG413) rolls back the key's row too, so a refused write records no key.
CREATE FUNCTION engram_put_once(p_caller text, p_key text, p_fingerprint text, p_reply text,
                                p_store text, p_default_limit integer, p_scope text, p_name text, p_content text,
                                p_meta jsonb, p_hash text, p_search text, p_session text, p_expect text, p_base text)
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
                                                 p_hash, p_search, p_session, p_expect, p_base) w;
        INSERT INTO idempotency (store_id, caller, key, fingerprint, seq, reply)
        VALUES (p_store, p_caller, p_key, p_fingerprint, v_seq, p_reply);
        RETURN QUERY SELECT false, p_reply, j FROM journal j WHERE j.store_id = p_store AND j.seq = v_seq;
    ELSE
        RETURN QUERY SELECT true, v_reply, j FROM journal j WHERE j.store_id = p_store AND j.seq = v_seq;
    END IF;
END
$$;

-- engram_forget made at most once under a key, as engram_put_once is; EG404 and EG412 record no key.
CREATE FUNCTION engram_forget_once(p_caller text, p_key text, p_fingerprint text, p_reply text,
                                   p_store text, p_scope text, p_name text, p_session text, p_expect text,
                                   p_base text)
    RETURNS TABLE (replayed boolean, reply text, rec journal)
    LANGUAGE plpgsql AS
$$
DECLARE
    v_seq   bigint;
    v_reply text;
BEGIN
    SELECT k.seq, k.reply INTO v_seq, v_reply FROM engram_key_seen(p_store, p_caller, p_key, p_fingerprint) k;
    IF v_seq IS NULL THEN
        SELECT w.seq INTO v_seq FROM engram_forget(p_store, p_scope, p_name, p_session, p_expect, p_base) w;
        INSERT INTO idempotency (store_id, caller, key, fingerprint, seq, reply)
        VALUES (p_store, p_caller, p_key, p_fingerprint, v_seq, p_reply);
        RETURN QUERY SELECT false, p_reply, j FROM journal j WHERE j.store_id = p_store AND j.seq = v_seq;
    ELSE
        RETURN QUERY SELECT true, v_reply, j FROM journal j WHERE j.store_id = p_store AND j.seq = v_seq;
    END IF;
END
$$;

-- Erases one entry in one transaction under the store's row lock: deletes the live row, blanks the content and meta
-- of every record of the entry not blank yet (seq, hashes, prev, replaced, session and times stay, so the journal
-- stays gapless and its chain and lost-update audit still hold), blanks the fingerprints and replies of the keys
-- those records were written under, and appends the erasure record: a tombstone with no content and no hash,
-- replacing the live hash ('' when the entry was not live), with {"by", "reason"} in erasure.
-- With nothing left to erase (no live row, every record blank) it writes nothing and returns the last erasure
-- record. Raises
--   EG404 no such store, or the store never held the entry
CREATE FUNCTION engram_erase(p_store text, p_scope text, p_name text, p_by text, p_reason text)
    RETURNS SETOF journal
    LANGUAGE plpgsql AS
$$
DECLARE
    v_seq  bigint;
    v_hash text;
    v_now  timestamptz := clock_timestamp();
BEGIN
    PERFORM 1 FROM store s WHERE s.id = p_store FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such store';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM journal j WHERE j.store_id = p_store AND j.scope = p_scope AND j.name = p_name) THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such entry';
    END IF;

    DELETE FROM entry e WHERE e.store_id = p_store AND e.scope = p_scope AND e.name = p_name
    RETURNING e.hash INTO v_hash;
    IF v_hash IS NULL AND NOT EXISTS (SELECT 1 FROM journal j WHERE j.store_id = p_store AND j.scope = p_scope
                                      AND j.name = p_name AND j.erased_by IS NULL AND j.erasure IS NULL) THEN
        RETURN QUERY SELECT j.* FROM journal j WHERE j.store_id = p_store AND j.scope = p_scope AND j.name = p_name
                                                 AND j.erasure IS NOT NULL ORDER BY j.seq DESC LIMIT 1;
        RETURN;
    END IF;

    UPDATE store s SET seq = s.seq + 1 WHERE s.id = p_store RETURNING s.seq INTO v_seq;
    UPDATE journal j SET content = '', meta = '{}', erased_by = v_seq
    WHERE j.store_id = p_store AND j.scope = p_scope AND j.name = p_name AND j.erased_by IS NULL
      AND j.erasure IS NULL;
    UPDATE idempotency i SET fingerprint = '', reply = ''
    WHERE i.store_id = p_store AND i.seq IN (SELECT j.seq FROM journal j WHERE j.store_id = p_store
                                             AND j.scope = p_scope AND j.name = p_name AND j.erased_by = v_seq);
    INSERT INTO journal (store_id, seq, scope, name, content, meta, hash, updated, deleted, prev, replaced, session,
                         at, erasure)
    VALUES (p_store, v_seq, p_scope, p_name, '', '{}', '', v_now, true, coalesce(v_hash, ''), coalesce(v_hash, ''),
            '', v_now, jsonb_build_object('by', p_by, 'reason', p_reason));

    RETURN QUERY SELECT j.* FROM journal j WHERE j.store_id = p_store AND j.seq = v_seq;
END
$$;
