-- The export workload's store: export-10k, 10,000 entries of about 2 KB in 20 scopes, each written by engram_put (the
-- service's own write function), so its journal holds a record per entry as a store written by agents would.
set engram.max_entries_per_store = 0;
select count(*) from (
  select engram_put('export-10k', 4096, 'scope-' || lpad((i % 20)::text, 2, '0'), 'note-' || lpad(i::text, 5, '0'),
                    c.content, jsonb_build_object('description', 'Note ' || i),
                    'sha256:' || encode(sha256(convert_to(c.content, 'UTF8')), 'hex'),
                    lower('note-' || lpad(i::text, 5, '0') || E'\n' || c.content), '', NULL, NULL)
  from generate_series(1, 10000) i,
       lateral (select '# Note ' || i || E'\n\n' || repeat('A remembered detail, long enough to weigh. ', 46) || E'\n'
                as content) c) w;
