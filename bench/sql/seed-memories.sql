-- Seed data for the recall workload, written straight to the tables: the store recall-big holds 100,000 memories in
-- ten banks of 10,000 (user:bench is the one searched), of ~150 bytes each, two of twenty words in each.
insert into store (id, seq, max_entry_bytes) values ('recall-big', 0, 4096) on conflict do nothing;

with words(w) as (select array['alpha','bravo','charlie','delta','echo','foxtrot','golf','hotel','india','juliet',
                               'kilo','lima','mike','november','oscar','papa','quebec','romeo','sierra','tango'])
insert into memory (store_id, id, bank, scope_type, scope_id, type, content, importance, confidence, tags, keywords,
                    evidence, source, valid_from, superseded_by, conflicting, archived, archive_reason, revisions,
                    created_at, updated_at, haystack)
  select 'recall-big', 'm-' || i, case when i % 10 = 0 then 'user:bench' else 'user:other-' || (i % 10) end, 'user',
         case when i % 10 = 0 then 'bench' else 'other-' || (i % 10) end, 'fact', c.content, (i % 10) / 10.0 + 0.05, 0,
         '{}', '{}', '{}', 'user_input', now() - i * interval '1 minute', '', false, false, '', '[]',
         now() - i * interval '1 minute', now(), lower(c.content || '  ')
  from generate_series(1, 100000) i, words,
       lateral (select 'Memory ' || i || ' about ' || words.w[1 + i % 20] || ' and ' || words.w[1 + (i * 7) % 20]
                || '. ' || repeat('Some recalled detail. ', 4) as content) c
  on conflict do nothing;

analyze memory;

-- Their vectors, as the embedder would have written them: 384 floats of the local model's name, from 1,000 random
-- unit-length vectors (the time a search takes does not depend on what the vectors say); then the queue the saves
-- filled is emptied, so that embedding 100,000 memories does not run under the measurements.
with v(n, vector) as (
  select n, (select string_agg(float4send(((random() - 0.5) / 5.657)::float4), ''::bytea)
               from generate_series(1, 384) where n >= 0)
  from generate_series(0, 999) n)
insert into memory_vector (store_id, id, model, dimensions, vector, embedded_at, change)
  select 'recall-big', 'm-' || i, 'all-minilm-l6-v2-q', 384, v.vector, now(), 0
  from generate_series(1, 100000) i join v on v.n = i % 1000
  on conflict do nothing;
delete from embed_queue where store_id = 'recall-big';
analyze memory_vector;
