-- The journal's primitives, the only SQL that takes a store's lock or its seq and the only SQL that appends a
-- record (docs/adr/0008-one-journal-model.md). Every write function calls them, and so does
-- dev.engram.journal.persistence.JournalNotes for the writes Java makes (memories, contexts).
--
-- A repeatable migration (Flyway's R__): this is the one current definition of these functions, applied after every
-- V migration and again whenever this file changes. Keep each function's name, arguments and result as they are.

-- Takes store p_store's row lock, held to the commit, and answers its row (seq is the last seq handed out, so the
-- next record takes seq + 1). A store that does not exist is created with the bound p_default_limit and seq 0, or,
-- with p_default_limit null, left missing: the answer is then a row of nulls. Everything a write reads after this
-- (each statement of a volatile function sees what committed before it) is what the store holds until its commit.
CREATE OR REPLACE FUNCTION engram_store_lock(p_store text, p_default_limit integer)
    RETURNS store
    LANGUAGE plpgsql AS
$$
DECLARE
    v_store store;
BEGIN
    SELECT s.* INTO v_store FROM store s WHERE s.id = p_store FOR UPDATE;
    IF NOT FOUND AND p_default_limit IS NOT NULL THEN
        INSERT INTO store (id, seq, max_entry_bytes) VALUES (p_store, 0, p_default_limit) ON CONFLICT (id) DO NOTHING;
        SELECT s.* INTO v_store FROM store s WHERE s.id = p_store FOR UPDATE;
    END IF;
    RETURN v_store;
END
$$;

-- Takes store p_store's row lock and the seq of the one record the caller then appends, in one statement: the
-- store's row with its seq bumped, created with the bound p_default_limit and seq 1 when it does not exist (with
-- p_default_limit null it is left missing and the answer is a row of nulls). For the write functions that append
-- exactly one record or raise (a raise rolls the bump back with everything else), so the seq stays gapless: they
-- pass the row's seq to engram_journal_append as p_seq. A write that may end without a record takes
-- engram_store_lock instead.
CREATE OR REPLACE FUNCTION engram_store_take(p_store text, p_default_limit integer)
    RETURNS store
    LANGUAGE plpgsql AS
$$
DECLARE
    v_store store;
BEGIN
    IF p_default_limit IS NULL THEN
        UPDATE store AS s SET seq = s.seq + 1 WHERE s.id = p_store RETURNING s.* INTO v_store;
    ELSE
        INSERT INTO store AS s (id, seq, max_entry_bytes) VALUES (p_store, 1, p_default_limit)
        ON CONFLICT (id) DO UPDATE SET seq = s.seq + 1
        RETURNING s.* INTO v_store;
    END IF;
    RETURN v_store;
END
$$;

-- Appends one record to store p_store's journal and answers its seq: p_seq, the seq the caller took with
-- engram_store_take, or with p_seq null the store's seq bumped here, which takes the store's row lock if
-- engram_store_lock did not already; either way seqs are gapless and commit in order. A refusal raised after it
-- rolls the bump back with the record.
--   EG404 no such store
-- p_kind is 'entry' for an entry's change and for an erasure record (p_erasure {"by", "reason"} set), else the
-- kind of another tier's record (memory.saved, context.steps_appended, ...), whose JSON is p_record and whose key is
-- p_name; such a note leaves the entry's columns at their placeholders ('' and {}). p_updated defaults to p_at.
-- p_by is who made the change (journal.written_by, V19), '' when not known.
CREATE OR REPLACE FUNCTION engram_journal_append(p_store text, p_kind text, p_name text, p_at timestamptz,
                                                 p_record jsonb DEFAULT NULL, p_scope text DEFAULT '',
                                                 p_content text DEFAULT '', p_meta jsonb DEFAULT '{}',
                                                 p_hash text DEFAULT '', p_updated timestamptz DEFAULT NULL,
                                                 p_deleted boolean DEFAULT false, p_prev text DEFAULT '',
                                                 p_replaced text DEFAULT '', p_session text DEFAULT '',
                                                 p_erasure jsonb DEFAULT NULL, p_seq bigint DEFAULT NULL,
                                                 p_by text DEFAULT '')
    RETURNS bigint
    LANGUAGE plpgsql AS
$$
DECLARE
    v_seq bigint := p_seq;
BEGIN
    IF v_seq IS NULL THEN
        UPDATE store AS s SET seq = s.seq + 1 WHERE s.id = p_store RETURNING s.seq INTO v_seq;
    END IF;
    IF v_seq IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such store';
    END IF;
    INSERT INTO journal (store_id, seq, scope, name, content, meta, hash, updated, deleted, prev, replaced, session,
                         at, kind, record, erasure, written_by)
    VALUES (p_store, v_seq, p_scope, p_name, p_content, p_meta, p_hash, coalesce(p_updated, p_at), p_deleted,
            p_prev, p_replaced, p_session, p_at, p_kind, p_record, p_erasure, coalesce(p_by, ''));
    RETURN v_seq;
END
$$;
