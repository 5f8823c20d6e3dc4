-- Saving a memory in one statement, as an entry write is (ADR 0001), in its one current definition (a repeatable
-- migration, applied after every V migration and again whenever this file changes; keep its name, arguments and
-- result): the store's lock with the record's seq (engram_store_take), the memory's row, the store's count of
-- memories and the journal record (engram_journal_append), in one call of one round trip, so that the lock every
-- write of the store waits on is held for one statement and its commit, not for five round trips.
--
-- The caller read the memory before (without a lock; or not at all for an id it has just made) and built the record
-- from what it found: p_old_created is the creation time it found (null for none). When the row now says otherwise
-- (a save or a delete of the same id came between), nothing is written and
--   EG409 the memory changed since it was read
-- is raised, for the caller to read again. A save that would create one memory more than p_max (0: no limit) raises
--   EG429 the store holds its most memories, DETAIL the limit
CREATE OR REPLACE FUNCTION engram_memory_save(p_store text, p_default_limit integer, p_max integer, p_id text,
                                              p_bank text, p_scope_type text, p_scope_id text, p_type text,
                                              p_content text, p_importance double precision,
                                              p_confidence double precision, p_tags text[], p_keywords text[],
                                              p_evidence text[], p_source text, p_valid_from timestamptz,
                                              p_valid_to timestamptz, p_superseded_by text, p_conflicting boolean,
                                              p_archived boolean, p_archived_at timestamptz, p_archive_reason text,
                                              p_revisions jsonb, p_created_at timestamptz, p_updated_at timestamptz,
                                              p_haystack text, p_old_created timestamptz, p_record jsonb,
                                              p_at timestamptz, p_by text DEFAULT '')
    RETURNS bigint
    LANGUAGE plpgsql AS
$$
DECLARE
    v_store   store;
    v_created timestamptz;
BEGIN
    v_store := engram_store_take(p_store, p_default_limit);

    SELECT m.created_at INTO v_created FROM memory m WHERE m.store_id = p_store AND m.id = p_id;
    IF v_created IS DISTINCT FROM p_old_created THEN
        RAISE EXCEPTION USING ERRCODE = 'EG409', MESSAGE = 'the memory changed since it was read';
    END IF;
    IF v_created IS NULL THEN
        IF p_max > 0 AND v_store.memories + 1 > p_max THEN
            RAISE EXCEPTION USING ERRCODE = 'EG429', MESSAGE = 'the store holds its most memories',
                DETAIL = p_max::text;
        END IF;
        UPDATE store s SET memories = s.memories + 1 WHERE s.id = p_store;
        INSERT INTO memory (store_id, id, bank, scope_type, scope_id, type, content, importance, confidence, tags,
                            keywords, evidence, source, valid_from, valid_to, superseded_by, conflicting, archived,
                            archived_at, archive_reason, revisions, created_at, updated_at, haystack)
        VALUES (p_store, p_id, p_bank, p_scope_type, p_scope_id, p_type, p_content, p_importance, p_confidence,
                p_tags, p_keywords, p_evidence, p_source, p_valid_from, p_valid_to, p_superseded_by, p_conflicting,
                p_archived, p_archived_at, p_archive_reason, p_revisions, p_created_at, p_updated_at, p_haystack);
    ELSE
        UPDATE memory SET bank = p_bank, scope_type = p_scope_type, scope_id = p_scope_id, type = p_type,
                          content = p_content, importance = p_importance, confidence = p_confidence, tags = p_tags,
                          keywords = p_keywords, evidence = p_evidence, source = p_source,
                          valid_from = p_valid_from, valid_to = p_valid_to, superseded_by = p_superseded_by,
                          conflicting = p_conflicting, archived = p_archived, archived_at = p_archived_at,
                          archive_reason = p_archive_reason, revisions = p_revisions, updated_at = p_updated_at,
                          haystack = p_haystack
        WHERE store_id = p_store AND id = p_id;
    END IF;

    RETURN engram_journal_append(p_store => p_store, p_kind => 'memory.saved', p_name => p_id, p_at => p_at,
                                 p_record => p_record, p_seq => v_store.seq, p_by => p_by);
END
$$;
