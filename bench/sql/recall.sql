-- The seed ranking's candidate query for the recall search of "bravo hotel" in one bank, top_k 10 (PgRecall's
-- seedSearch, what every search ran before the hybrid ranking): the 40 candidates that contain the most tokens; the
-- seed ranking then scores them and keeps the best 10. The hybrid search it is compared with ranks in memory and
-- reads from the database only the changes since its last search (none here) and the 10 memories it found. Its values come as
-- pgbench variables (-D store= bank= t1= t2=, see bench/run), which -M prepared sends as parameters, as Engram's
-- JDBC statement does: literals would let the planner pick a plan Engram never gets.
select m.id, m.scope_type, m.scope_id, m.type, m.content, m.importance, m.tags, m.keywords, m.source, m.confidence,
       m.evidence, m.valid_from, m.valid_to, m.superseded_by, m.conflicting, m.archived, m.archived_at,
       m.archive_reason, coalesce(a.count, 0), a.last_accessed, m.created_at, m.updated_at, m.revisions::text,
       (m.haystack like :t1)::int + (m.haystack like :t2)::int as matched
  from memory m left join memory_access a on a.store_id = m.store_id and a.id = m.id
 where (m.store_id || '') = :store and (m.haystack like :t1 or m.haystack like :t2)
   and not m.archived and m.valid_to is null and m.superseded_by = '' and m.bank = any(:banks)
 order by matched desc, m.id limit 40;
