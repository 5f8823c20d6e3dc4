-- The write functions of documents (ADR 0009; table V15), in their one current definition: a repeatable migration,
-- applied after every V migration and again whenever this file changes. As an entry's write (ADR 0001), each is one
-- statement of one round trip: it takes the store's lock (engram_store_take, or engram_store_lock for an update that
-- may change nothing), reads the document under it, checks, writes the row and appends its record
-- (engram_journal_append): the version's JSON, p_record (its operation and actor) with the document's id, path,
-- content, digest and size after the change and the record's seq; previous_path after a move, replaced_sha256 (the
-- digest of the content it replaced) after a change of content, so an audit finds every overwrite. Each answers the
-- document's row after the change (for a deletion, before it) and the seq of its record. Keep each function's
-- name, arguments and result as they are. Refusals raise, rolling everything back:
--   EG404 no such document
--   EG409 the path is taken, DETAIL the id of the document holding it: a document at the path, under it (the path
--         is its directory) or above it (its path is a directory of the path), as in a file system
--   EG412 precondition failed, DETAIL the content's SHA-256 held
--   EG423 the store is archived
--   EG429 the store holds its most documents, DETAIL the limit
-- The caller checked the path and the content's size; p_sha is the content's hex SHA-256, p_size its bytes.

CREATE OR REPLACE FUNCTION engram_document_archived(p_store text) RETURNS void
    LANGUAGE plpgsql AS
$$
BEGIN
    IF EXISTS (SELECT 1 FROM store_profile p WHERE p.store_id = p_store AND p.archived_at IS NOT NULL) THEN
        RAISE EXCEPTION USING ERRCODE = 'EG423', MESSAGE = 'the store is archived';
    END IF;
END
$$;

-- The live document of store p_store that path p_path would collide with, other than p_self: one at the path, one
-- under it, or one at a directory of it. Null when there is none. Each probe is a range or a point of the path index.
CREATE OR REPLACE FUNCTION engram_document_collision(p_store text, p_path text, p_self text) RETURNS text
    LANGUAGE sql STABLE AS
$$
SELECT d.id FROM document d
WHERE d.store_id = p_store AND d.id IS DISTINCT FROM p_self
  AND (d.path = p_path
       OR (d.path > p_path || '/' AND d.path < p_path || '/' || chr(1114111) AND starts_with(d.path, p_path || '/'))
       OR d.path = ANY (SELECT array_to_string((string_to_array(p_path, '/'))[1:n], '/')
                        FROM generate_series(2, cardinality(string_to_array(p_path, '/')) - 1) AS n))
LIMIT 1
$$;

-- The JSON of the version that leaves document p_doc as it is, record p_seq: p_record with the document's state.
CREATE OR REPLACE FUNCTION engram_document_version(p_record jsonb, p_doc document, p_seq bigint) RETURNS jsonb
    LANGUAGE sql IMMUTABLE AS
$$
SELECT p_record || jsonb_build_object('seq', p_seq, 'id', p_doc.id, 'path', p_doc.path, 'content', p_doc.content,
                                      'content_sha256', p_doc.sha256, 'content_size_bytes', p_doc.size)
$$;

-- Creates document p_id at p_path, which must be free. p_max is the store's most documents (0: no limit).
CREATE OR REPLACE FUNCTION engram_document_create(p_store text, p_default_limit integer, p_max integer,
                                                  p_id text, p_path text, p_content text, p_sha text,
                                                  p_size integer, p_record jsonb, p_at timestamptz)
    RETURNS TABLE (seq bigint, doc document)
    LANGUAGE plpgsql AS
$$
DECLARE
    v_store store;
    v_taken text;
    v_doc   document;
BEGIN
    v_store := engram_store_take(p_store, p_default_limit);
    PERFORM engram_document_archived(p_store);
    v_taken := engram_document_collision(p_store, p_path, NULL);
    IF v_taken IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'EG409', MESSAGE = 'the path is taken', DETAIL = v_taken;
    END IF;
    IF p_max > 0 AND v_store.documents >= p_max THEN
        RAISE EXCEPTION USING ERRCODE = 'EG429', MESSAGE = 'the store holds its most documents',
            DETAIL = p_max::text;
    END IF;
    UPDATE store s SET documents = s.documents + 1 WHERE s.id = p_store;
    INSERT INTO document AS d (store_id, id, path, content, sha256, size, created_at, updated_at, version)
    VALUES (p_store, p_id, p_path, p_content, p_sha, p_size, p_at, p_at, v_store.seq)
    RETURNING d.* INTO v_doc;
    seq := engram_journal_append(p_store => p_store, p_kind => 'document.created', p_name => p_id, p_at => p_at,
                                 p_record => engram_document_version(p_record, v_doc, v_store.seq),
                                 p_seq => v_store.seq);
    doc := v_doc;
    RETURN NEXT;
END
$$;

-- Moves document p_id to p_path and sets its content to p_content (either null: kept), if its content's SHA-256
-- is p_expect (null: whatever it is). A change that changes nothing appends nothing and answers seq 0.
CREATE OR REPLACE FUNCTION engram_document_update(p_store text, p_id text, p_path text, p_content text,
                                                  p_sha text, p_size integer, p_expect text, p_record jsonb,
                                                  p_at timestamptz)
    RETURNS TABLE (seq bigint, doc document)
    LANGUAGE plpgsql AS
$$
DECLARE
    v_store store;
    v_doc   document;
    v_taken text;
    v_seq   bigint;
    v_moved jsonb := '{}';
BEGIN
    v_store := engram_store_lock(p_store, NULL);
    IF v_store.id IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such document';
    END IF;
    PERFORM engram_document_archived(p_store);
    SELECT d.* INTO v_doc FROM document d WHERE d.store_id = p_store AND d.id = p_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such document';
    END IF;
    IF p_expect IS NOT NULL AND p_expect <> v_doc.sha256 THEN
        RAISE EXCEPTION USING ERRCODE = 'EG412', MESSAGE = 'precondition failed', DETAIL = v_doc.sha256;
    END IF;
    IF (p_path IS NULL OR p_path = v_doc.path) AND (p_content IS NULL OR p_sha = v_doc.sha256) THEN
        seq := 0;
        doc := v_doc;
        RETURN NEXT;
        RETURN;
    END IF;
    IF p_path IS NOT NULL AND p_path <> v_doc.path THEN
        v_taken := engram_document_collision(p_store, p_path, p_id);
        IF v_taken IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = 'EG409', MESSAGE = 'the path is taken', DETAIL = v_taken;
        END IF;
        v_moved := jsonb_build_object('previous_path', v_doc.path);
    END IF;
    IF p_content IS NOT NULL AND p_sha <> v_doc.sha256 THEN
        v_moved := v_moved || jsonb_build_object('replaced_sha256', v_doc.sha256);
    END IF;
    v_seq := v_store.seq + 1;
    UPDATE document d SET path = coalesce(p_path, d.path), content = coalesce(p_content, d.content),
                          sha256 = coalesce(p_sha, d.sha256), size = coalesce(p_size, d.size),
                          updated_at = p_at, version = v_seq
    WHERE d.store_id = p_store AND d.id = p_id
    RETURNING d.* INTO v_doc;
    seq := engram_journal_append(p_store => p_store, p_kind => 'document.modified', p_name => p_id, p_at => p_at,
                                 p_record => engram_document_version(p_record || v_moved, v_doc, v_seq));
    doc := v_doc;
    RETURN NEXT;
END
$$;

-- Deletes document p_id if its content's SHA-256 is p_expect (null: whatever it is); its record keeps its last
-- path and content, as a tombstone does.
CREATE OR REPLACE FUNCTION engram_document_delete(p_store text, p_id text, p_expect text, p_record jsonb,
                                                  p_at timestamptz)
    RETURNS TABLE (seq bigint, doc document)
    LANGUAGE plpgsql AS
$$
DECLARE
    v_store store;
    v_doc   document;
BEGIN
    v_store := engram_store_take(p_store, NULL);
    IF v_store.id IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such document';
    END IF;
    PERFORM engram_document_archived(p_store);
    DELETE FROM document d WHERE d.store_id = p_store AND d.id = p_id RETURNING d.* INTO v_doc;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'EG404', MESSAGE = 'no such document';
    END IF;
    IF p_expect IS NOT NULL AND p_expect <> v_doc.sha256 THEN
        RAISE EXCEPTION USING ERRCODE = 'EG412', MESSAGE = 'precondition failed', DETAIL = v_doc.sha256;
    END IF;
    UPDATE store s SET documents = s.documents - 1 WHERE s.id = p_store;
    seq := engram_journal_append(p_store => p_store, p_kind => 'document.deleted', p_name => p_id, p_at => p_at,
                                 p_record => engram_document_version(p_record, v_doc, v_store.seq),
                                 p_seq => v_store.seq);
    doc := v_doc;
    RETURN NEXT;
END
$$;
