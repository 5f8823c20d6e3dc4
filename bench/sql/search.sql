-- Engram's search query for "bravo hotel" over every scope of search-big, 20 results (PgEntryQueries.search).
-- Engram runs it with sequential scans turned off for its transaction, which changes nothing here: PostgreSQL picks
-- the trigram index for it.
select scope, name, content, meta::text, hash, updated from entry where (store_id || '') = 'search-big'
   and search_text like '%bravo%' escape '\' and search_text like '%hotel%' escape '\'
 order by scope, name limit 20;
