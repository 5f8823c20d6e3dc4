-- Engram's own write, called straight from pgbench: one statement, one round trip (engram_put, migration V1).
-- Stores pf-<first> to pf-<first + stores - 1>.
\set s :first + random(0, :stores - 1)
\set n random(0, 49)
SELECT seq FROM engram_put('pf-' || :s, 4096, 'notes', 'n-' || :n, repeat('x', 199) || E'\n', '{}',
  'sha256:' || encode(sha256(convert_to(repeat('x', 199) || E'\n', 'UTF8')), 'hex'),
  'n-' || :n || E'\n' || repeat('x', 199) || E'\n', '', NULL, NULL);
