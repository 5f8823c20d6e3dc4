-- Engram's candidate query for the recall search of "bravo hotel" in one bank, top_k 10 (PgRecall.search): the 40
-- candidates that contain the most tokens; Engram then scores them and keeps the best 10. The bank id is spelled
-- with chr(58) for its colon, which pgbench would otherwise read as a variable.
select m.id, m.scope_type, m.scope_id, m.type, m.content, m.importance, m.tags, m.keywords, m.source, m.confidence,
       m.evidence, m.valid_from, m.valid_to, m.superseded_by, m.conflicting, m.archived, m.archived_at,
       m.archive_reason, coalesce(a.count, 0), a.last_accessed, m.created_at, m.updated_at, m.revisions::text,
       (m.haystack like '%bravo%')::int + (m.haystack like '%hotel%')::int as matched
  from memory m left join memory_access a on a.store_id = m.store_id and a.id = m.id
 where (m.store_id || '') = 'recall-big' and (m.haystack like '%bravo%' or m.haystack like '%hotel%')
   and not m.archived and m.valid_to is null and m.superseded_by = '' and m.bank = 'user' || chr(58) || 'bench'
 order by matched desc, m.id limit 40;
