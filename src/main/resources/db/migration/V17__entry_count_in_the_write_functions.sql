-- The store's count of live entries (store.entries, V16) is kept by the functions that create and remove entries
-- rather than by statement triggers on entry: a statement trigger ran for every INSERT ... ON CONFLICT and DELETE,
-- a row created or not, and its transition table and UPDATE of the store's row cost every write (bench/run's writes
-- workload: about a fifth of Engram's writes over 100 stores, and of engram_put's own throughput). engram_put adds
-- one on a create, engram_forget and engram_erase take one off a removal (R__entry_writes.sql), the import sets the
-- count once after its writes. Rows written straight to the table (bench/run's seeds) set it themselves.
DROP TRIGGER entries_added ON entry;
DROP TRIGGER entries_removed ON entry;
DROP FUNCTION engram_entries_added();
DROP FUNCTION engram_entries_removed();

UPDATE store s SET entries = coalesce((SELECT count(*) FROM entry e WHERE e.store_id = s.id), 0);
