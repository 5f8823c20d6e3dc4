-- The write functions of the Memory Stores API over stores and documents (tables V15: store_profile, document, and
-- the journal), in their one current definition: a repeatable migration, applied after every V migration and again
-- whenever this file changes. As every write (ADR 0001) each is one statement of one round trip: it takes the store's
-- lock (engram_store_take, or engram_store_lock for a write that may change nothing), checks, writes and appends its
-- record (engram_journal_append) with p_record, the caller's JSON of the change (its actor). A store with no profile
-- row is a memory store named by its id; a change of its profile makes the row. Keep each function's name,
-- arguments and result as they are. Refusals raise, rolling everything back:
--   EG404 no such store, or no such version of a memory of the store
--   EG409 the store exists already (create)
--   EG410 the version is the current version of a live memory (redact)
--   EG422 the metadata would hold more pairs than p_max_pairs, DETAIL their number
--   EG423 the store is archived

-- The profile of store p_store as it is, or as a store that never had one answers: its id as its name.
CREATE OR REPLACE FUNCTION engram_memory_store_profile(p_store text) RETURNS store_profile
    LANGUAGE sql STABLE AS
$$
SELECT coalesce((SELECT p FROM store_profile p WHERE p.store_id = p_store),
                (SELECT ROW(s.id, s.id, '', '{}'::jsonb, s.created_at, s.created_at, NULL)::store_profile
                 FROM store s WHERE s.id = p_store))
$$;

-- Creates store p_store (which must not exist) with its profile; p_default_limit is its entries' bound.
CREATE OR REPLACE FUNCTION engram_memory_store_create(p_store text, p_default_limit integer, p_name text,
                                                      p_description text, p_metadata jsonb, p_record jsonb,
                                                      p_at timestamptz)
    RETURNS store_profile
    LANGUAGE plpgsql AS
$$
DECLARE
    v_store   store;
    v_profile store_profile;
BEGIN
    v_store := engram_store_take(p_store, p_default_limit);
    IF v_store.seq <> 1 OR EXISTS (SELECT 1 FROM store_profile p WHERE p.store_id = p_store) THEN
        RAISE EXCEPTION USING ERRCODE = 'EG409', MESSAGE = 'the store exists';
    END IF;
    INSERT INTO store_profile AS p (store_id, name, description, metadata, created_at, updated_at)
    VALUES (p_store, p_name, p_description, p_metadata, p_at, p_at)
    RETURNING p.* INTO v_profile;
    PERFORM engram_journal_append(p_store => p_store, p_kind => 'memory_store.created', p_name => p_store,
                                  p_at => p_at, p_seq => v_store.seq,
                                  p_record => p_record || jsonb_build_object('name', p_name, 'description',
                                      p_description, 'metadata', p_metadata));
    RETURN v_profile;
END
$$;

-- Sets the name and description (each null: kept) and applies p_metadata to the metadata (a key set to JSON null is
-- removed). A change that changes nothing appends nothing and answers seq 0.
CREATE OR REPLACE FUNCTION engram_memory_store_update(p_store text, p_name text, p_description text,
                                                      p_metadata jsonb, p_max_pairs integer, p_record jsonb,
                                                      p_at timestamptz)
    RETURNS TABLE (seq bigint, profile store_profile)
    LANGUAGE plpgsql AS
$$
DECLARE
    v_was  store_profile;
    v_now  store_profile;
    v_meta jsonb;
BEGIN
    IF (engram_store_lock(p_store, NULL)).id IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such store';
    END IF;
    v_was := engram_memory_store_profile(p_store);
    IF v_was.archived_at IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'EG423', MESSAGE = 'the store is archived';
    END IF;
    v_meta := jsonb_strip_nulls(v_was.metadata || coalesce(p_metadata, '{}'));
    IF (SELECT count(*) FROM jsonb_object_keys(v_meta)) > p_max_pairs THEN
        RAISE EXCEPTION USING ERRCODE = 'EG422', MESSAGE = 'too many metadata pairs',
            DETAIL = (SELECT count(*) FROM jsonb_object_keys(v_meta))::text;
    END IF;
    IF coalesce(p_name, v_was.name) = v_was.name AND coalesce(p_description, v_was.description) = v_was.description
       AND v_meta = v_was.metadata THEN
        seq := 0;
        profile := v_was;
        RETURN NEXT;
        RETURN;
    END IF;
    INSERT INTO store_profile AS p (store_id, name, description, metadata, created_at, updated_at)
    VALUES (p_store, coalesce(p_name, v_was.name), coalesce(p_description, v_was.description), v_meta,
            v_was.created_at, p_at)
    ON CONFLICT (store_id) DO UPDATE SET name = excluded.name, description = excluded.description,
                                         metadata = excluded.metadata, updated_at = excluded.updated_at
    RETURNING p.* INTO v_now;
    seq := engram_journal_append(p_store => p_store, p_kind => 'memory_store.updated', p_name => p_store,
                                 p_at => p_at,
                                 p_record => p_record || jsonb_build_object('name', v_now.name, 'description',
                                     v_now.description, 'metadata', v_now.metadata));
    profile := v_now;
    RETURN NEXT;
END
$$;

-- Archives store p_store: read-only from now on (the document writes refuse with EG423). One-way; a store already
-- archived is answered as it is, with seq 0.
CREATE OR REPLACE FUNCTION engram_memory_store_archive(p_store text, p_record jsonb, p_at timestamptz)
    RETURNS TABLE (seq bigint, profile store_profile)
    LANGUAGE plpgsql AS
$$
DECLARE
    v_was store_profile;
    v_now store_profile;
BEGIN
    IF (engram_store_lock(p_store, NULL)).id IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such store';
    END IF;
    v_was := engram_memory_store_profile(p_store);
    IF v_was.archived_at IS NOT NULL THEN
        seq := 0;
        profile := v_was;
        RETURN NEXT;
        RETURN;
    END IF;
    INSERT INTO store_profile AS p (store_id, name, description, metadata, created_at, updated_at, archived_at)
    VALUES (p_store, v_was.name, v_was.description, v_was.metadata, v_was.created_at, p_at, p_at)
    ON CONFLICT (store_id) DO UPDATE SET updated_at = excluded.updated_at, archived_at = excluded.archived_at
    RETURNING p.* INTO v_now;
    seq := engram_journal_append(p_store => p_store, p_kind => 'memory_store.archived', p_name => p_store,
                                 p_at => p_at, p_record => p_record);
    profile := v_now;
    RETURN NEXT;
END
$$;

-- The JSON of a version record p_record redacted by p_by at p_at: its path, content, digest and size (and the path
-- it was moved from) erased, its operation, actor, id and seq kept.
CREATE OR REPLACE FUNCTION engram_memory_version_redacted(p_record jsonb, p_by jsonb, p_at timestamptz)
    RETURNS jsonb
    LANGUAGE sql IMMUTABLE AS
$$
SELECT (p_record - 'previous_path')
       || jsonb_build_object('path', NULL, 'content', NULL, 'content_sha256', NULL, 'content_size_bytes', NULL,
                             'redacted_at', to_jsonb(p_at), 'redacted_by', p_by)
$$;

-- Redacts version p_seq (a document record of store p_store): erases its path and content in place, as an
-- entry's erasure does (ADR 0005), marks it erased_by the document.redacted record appended for it, and blanks the
-- idempotency replies that carried it. The current version of a live document is refused (EG410); a version already
-- redacted is answered as it is. p_by is the redacting actor's JSON. Answers the version's record.
CREATE OR REPLACE FUNCTION engram_memory_version_redact(p_store text, p_seq bigint, p_by jsonb, p_at timestamptz)
    RETURNS SETOF journal
    LANGUAGE plpgsql AS
$$
DECLARE
    v_version journal;
    v_seq     bigint;
BEGIN
    IF (engram_store_lock(p_store, NULL)).id IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such version';
    END IF;
    SELECT j.* INTO v_version FROM journal j
    WHERE j.store_id = p_store AND j.seq = p_seq
      AND j.kind IN ('document.created', 'document.modified', 'document.deleted');
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such version';
    END IF;
    IF v_version.erased_by IS NOT NULL THEN
        RETURN NEXT v_version;
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM document d WHERE d.store_id = p_store AND d.id = v_version.name
                                          AND d.version = p_seq) THEN
        RAISE EXCEPTION USING ERRCODE = 'EG410', MESSAGE = 'the current version of a live memory',
            DETAIL = v_version.name;
    END IF;
    v_seq := engram_journal_append(p_store => p_store, p_kind => 'document.redacted', p_name => v_version.name,
                                   p_at => p_at, p_record => jsonb_build_object('version', p_seq, 'actor', p_by));
    UPDATE idempotency i SET fingerprint = '', reply = '' WHERE i.store_id = p_store AND i.seq = p_seq;
    RETURN QUERY UPDATE journal j SET record = engram_memory_version_redacted(j.record, p_by, p_at), erased_by = v_seq
                 WHERE j.store_id = p_store AND j.seq = p_seq
                 RETURNING j.*;
END
$$;

-- Erases store p_store's memories: deletes each live document (a document.deleted version each, with p_record's
-- actor), appends a memory_store.deleted record, redacts every version of the store's documents not yet redacted
-- (erased_by that record) and drops the profile. The store itself stays, as every Engram store does. Answers the
-- seq of the memory_store.deleted record.
CREATE OR REPLACE FUNCTION engram_memory_store_delete(p_store text, p_record jsonb, p_at timestamptz)
    RETURNS bigint
    LANGUAGE plpgsql AS
$$
DECLARE
    v_doc document;
    v_seq bigint;
BEGIN
    IF (engram_store_lock(p_store, NULL)).id IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such store';
    END IF;
    FOR v_doc IN DELETE FROM document d WHERE d.store_id = p_store RETURNING d.* LOOP
        v_seq := engram_journal_append(p_store => p_store, p_kind => 'document.deleted', p_name => v_doc.id,
                                       p_at => p_at,
                                       p_record => engram_document_version(p_record
                                           || jsonb_build_object('operation', 'deleted'), v_doc,
                                           (SELECT s.seq + 1 FROM store s WHERE s.id = p_store)));
    END LOOP;
    UPDATE store s SET documents = 0 WHERE s.id = p_store;
    DELETE FROM store_profile p WHERE p.store_id = p_store;
    v_seq := engram_journal_append(p_store => p_store, p_kind => 'memory_store.deleted', p_name => p_store,
                                   p_at => p_at, p_record => p_record);
    UPDATE idempotency i SET fingerprint = '', reply = ''
    WHERE i.store_id = p_store AND i.seq IN (SELECT j.seq FROM journal j WHERE j.store_id = p_store
                                             AND j.kind IN ('document.created', 'document.modified',
                                                            'document.deleted') AND j.erased_by IS NULL);
    UPDATE journal j SET record = engram_memory_version_redacted(j.record, p_record -> 'actor', p_at),
                         erased_by = v_seq
    WHERE j.store_id = p_store AND j.kind IN ('document.created', 'document.modified', 'document.deleted')
      AND j.erased_by IS NULL;
    RETURN v_seq;
END
$$;
