-- The scale workload's stores, written straight to the tables: store :store holds :entries entries of about 250
-- bytes in scopes of 50 (s-00000, s-00001, ...; names e-0000000, e-0000001, ...) and a journal of :records records
-- of entry writes about them (seq 1 to :records, the store's seq last), as a store that agents wrote for a long
-- time would. Run with psql -v store=... -v entries=... -v records=...
insert into store (id, seq, max_entry_bytes) values (:'store', :records, 4096)
  on conflict (id) do update set seq = excluded.seq;

insert into entry (store_id, scope, name, content, meta, hash, updated, search_text)
  select :'store', 's-' || lpad((i / 50)::text, 5, '0'), 'e-' || lpad(i::text, 7, '0'), c.content,
         jsonb_build_object('description', 'Entry ' || i),
         'sha256:' || encode(sha256(convert_to(c.content, 'UTF8')), 'hex'), now(),
         lower('e-' || lpad(i::text, 7, '0') || E'\n' || 'Entry ' || i || E'\n' || c.content)
  from generate_series(0, :entries - 1) i,
       lateral (select 'Remembered fact number ' || i || '. ' || repeat('Some detail about it. ', 10) || E'\n'
                as content) c
  on conflict do nothing;

insert into journal (store_id, seq, scope, name, content, meta, hash, updated, at)
  select :'store', q, 's-' || lpad((e / 50)::text, 5, '0'), 'e-' || lpad(e::text, 7, '0'), c.content,
         jsonb_build_object('description', 'Entry ' || e),
         'sha256:' || encode(sha256(convert_to(c.content, 'UTF8')), 'hex'),
         now() - (:records - q) * interval '1 second', now() - (:records - q) * interval '1 second'
  from generate_series(1, :records) q, lateral (select (q - 1) % :entries as e) x,
       lateral (select 'Remembered fact number ' || e || ', version ' || q || '. ' || repeat('Some detail. ', 14)
                || E'\n' as content) c
  on conflict do nothing;

-- The stores' counts of live entries, which the write functions keep and rows written straight here do not.
update store s set entries = (select count(*) from entry e where e.store_id = s.id)
  where s.id in (select distinct store_id from entry);

analyze entry;
analyze journal;
