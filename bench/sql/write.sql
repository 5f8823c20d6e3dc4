-- The same write as Engram's, as plain SQL statements in one transaction, the way an application without the
-- write function would send it: bump the store's seq (locking its row), journal the record with what the entry
-- held, upsert the entry, commit. Five round trips, three of them under the store's lock. Stores pb-<first> to
-- pb-<first + stores - 1>.
\set s :first + random(0, :stores - 1)
\set n random(0, 49)
BEGIN;
INSERT INTO store AS st (id, seq, max_entry_bytes) VALUES ('pb-' || :s, 1, 4096)
  ON CONFLICT (id) DO UPDATE SET seq = st.seq + 1 RETURNING st.seq AS seq \gset
INSERT INTO journal (store_id, seq, scope, name, content, meta, hash, updated, prev, replaced, session, at)
  SELECT 'pb-' || :s, :seq, 'notes', 'n-' || :n, repeat('x', 199) || E'\n', '{}',
         'sha256:' || encode(sha256(convert_to(repeat('x', 199) || E'\n' || :seq, 'UTF8')), 'hex'), now(),
         coalesce(e.hash, ''), coalesce(e.hash, ''), '', now()
  FROM (SELECT 1) one LEFT JOIN entry e ON e.store_id = 'pb-' || :s AND e.scope = 'notes' AND e.name = 'n-' || :n;
INSERT INTO entry AS e (store_id, scope, name, content, meta, hash, updated, search_text)
  VALUES ('pb-' || :s, 'notes', 'n-' || :n, repeat('x', 199) || E'\n', '{}',
          'sha256:' || encode(sha256(convert_to(repeat('x', 199) || E'\n' || :seq, 'UTF8')), 'hex'), now(),
          'n-' || :n || E'\n' || repeat('x', 199) || E'\n')
  ON CONFLICT (store_id, scope, name) DO UPDATE SET content = excluded.content, meta = excluded.meta,
     hash = excluded.hash, updated = excluded.updated, search_text = excluded.search_text;
END;
