-- Seed data for the read workloads, written straight to the tables (entries only; their journal is not needed to
-- read them). render-50 and render-500: one scope of ~300-byte entries. search-big: 10,000 entries, in a table
-- where 99 other stores hold 1,000 entries each.
insert into store (id, seq, max_entry_bytes)
  select id, 0, 4096 from unnest(array['render-50', 'render-500', 'search-big']) id
  union all select 'search-' || lpad(i::text, 2, '0'), 0, 4096 from generate_series(1, 99) i
  on conflict do nothing;

insert into entry (store_id, scope, name, content, meta, hash, updated, search_text)
  select s.id, 'user', 'fact-' || lpad(i::text, 3, '0'), c.content,
         jsonb_build_object('description', 'Fact ' || i), 'sha256:' || encode(sha256(convert_to(c.content, 'UTF8')), 'hex'),
         now(), lower('fact-' || lpad(i::text, 3, '0') || E'\n' || 'Fact ' || i || E'\n' || c.content)
  from (values ('render-50', 50), ('render-500', 500)) s(id, n), generate_series(1, s.n) i,
       lateral (select 'Remembered fact number ' || i || '. ' || repeat('Some detail about it. ', 12) || E'\n' as content) c
  on conflict do nothing;

with words(w) as (select array['alpha','bravo','charlie','delta','echo','foxtrot','golf','hotel','india','juliet',
                               'kilo','lima','mike','november','oscar','papa','quebec','romeo','sierra','tango'])
insert into entry (store_id, scope, name, content, meta, hash, updated, search_text)
  select s.id, 'notes', 'note-' || lpad(i::text, 5, '0'), c.content, '{}',
         'sha256:' || encode(sha256(convert_to(c.content, 'UTF8')), 'hex'), now(),
         lower('note-' || lpad(i::text, 5, '0') || E'\n' || c.content)
  from (select 'search-big' as id, 10000 as n
        union all select 'search-' || lpad(j::text, 2, '0'), 1000 from generate_series(1, 99) j) s,
       generate_series(1, s.n) i, words,
       lateral (select 'Note ' || i || ' on ' || words.w[1 + i % 20] || ' and ' || words.w[1 + (i * 7) % 20]
                || '. ' || repeat('Filler words to give the entry a realistic size. ', 5) || E'\n' as content) c
  on conflict do nothing;

-- The stores' counts of live entries, which the write functions keep and rows written straight here do not.
update store s set entries = (select count(*) from entry e where e.store_id = s.id)
  where s.id in (select distinct store_id from entry);

analyze entry;
