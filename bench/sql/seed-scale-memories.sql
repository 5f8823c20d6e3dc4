-- The scale workload's large bank, written straight to the tables as bench/sql/seed-memories.sql writes recall-big:
-- store recall-scale holds :memories memories in the one bank user:bench, with their vectors. Run with
-- psql -v memories=...
insert into store (id, seq, max_entry_bytes) values ('recall-scale', 0, 4096) on conflict do nothing;

with words(w) as (select array['alpha','bravo','charlie','delta','echo','foxtrot','golf','hotel','india','juliet',
                               'kilo','lima','mike','november','oscar','papa','quebec','romeo','sierra','tango'])
insert into memory (store_id, id, bank, scope_type, scope_id, type, content, importance, confidence, tags, keywords,
                    evidence, source, valid_from, superseded_by, conflicting, archived, archive_reason, revisions,
                    created_at, updated_at, haystack)
  select 'recall-scale', 'm-' || i, 'user:bench', 'user', 'bench', 'fact', c.content, (i % 10) / 10.0 + 0.05, 0,
         '{}', '{}', '{}', 'user_input', now() - i * interval '1 second', '', false, false, '', '[]',
         now() - i * interval '1 second', now(), lower(c.content || '  ')
  from generate_series(1, :memories) i, words,
       lateral (select 'Memory ' || i || ' about ' || words.w[1 + i % 20] || ' and ' || words.w[1 + (i * 7) % 20]
                || '. ' || repeat('Some recalled detail. ', 4) as content) c
  on conflict do nothing;

-- Each memory takes one of 1,000 random vectors by a hash of its number, not by its number modulo 1,000: the vector
-- lists train on every (n / sample)-th vector, which for a million is every 125th, and by the modulo those were 8
-- vectors only, so every list but 8 stayed empty and a search compared nearly every vector.
with v(n, vector) as (
  select n, (select string_agg(float4send(((random() - 0.5) / 5.657)::float4), ''::bytea)
               from generate_series(1, 384) where n >= 0)
  from generate_series(0, 999) n)
insert into memory_vector (store_id, id, model, dimensions, vector, embedded_at, change)
  select 'recall-scale', 'm-' || i, 'all-minilm-l6-v2-q', 384, v.vector, now(), 0
  from generate_series(1, :memories) i join v on v.n = abs(hashint4(i)) % 1000
  on conflict do nothing;
delete from embed_queue where store_id = 'recall-scale';
analyze memory;
analyze memory_vector;
