-- The search's plan must not flip with the table's statistics. Led by store_id, the trigram index competed with the
-- primary key (store_id, scope, name): after an ANALYZE of a table dominated by one store PostgreSQL chose to read
-- the whole store through the primary key, or the whole table, and filter it, several times slower than the trigram
-- index. Led by the expression (store_id || ''), equal to store_id but not a column any other index holds, the
-- trigram index is the only index the search's condition can use, and the search turns sequential scans off for
-- its own transaction (dev.engram.store.pg.PgEntryQueries), so it always runs on this index.
DROP INDEX entry_search;
CREATE INDEX entry_search ON entry USING gin ((store_id || ''), search_text gin_trgm_ops);
