-- The prompt's baseline: reading a context's steps with one SQL query, as the issue states it (Engram reads these
-- rows and its context row, then builds, prunes and serialises the prompt). Values come as pgbench variables
-- (-D store= context=, see bench/run), sent as parameters under -M prepared as Engram's JDBC statement sends them.
select step from context_step where store_id = :store and context_id = :context order by idx;
