-- How many memories a store holds, kept by every save that creates one and every deletion, under the store's row
-- lock that each of them already takes for its seq: the quota engram.limits.memories-per-store is then checked
-- without counting a table that may hold a hundred thousand rows of the store.
ALTER TABLE store ADD COLUMN memories integer NOT NULL DEFAULT 0;

UPDATE store s SET memories = c.n
FROM (SELECT store_id, count(*) AS n FROM memory GROUP BY store_id) c
WHERE c.store_id = s.id;
