-- The contexts' SQL (tables V11, V12), in its one current definition (a repeatable migration, applied after every V
-- migration and again whenever this file changes; keep each function's name, arguments and result).

-- The head of a change of context p_id in store p_store, in one round trip: store p_store's row lock
-- (engram_store_lock, creating the store with the bound p_default_limit), the seq the change's record will take
-- (h_seq), and, read under the lock, the context's row for update (its config as text, its state, its count of
-- steps; nulls when there is no such context). The row is read by a statement of its own after the lock is
-- granted, so it holds what every change committed before this one. A change used to send the two as two
-- statements, and each round trip under the store's lock makes every other writer of the store wait.
CREATE OR REPLACE FUNCTION engram_context_head(p_store text, p_id text, p_default_limit integer)
    RETURNS TABLE (h_seq bigint, h_config text, h_state text, h_steps integer)
    LANGUAGE plpgsql AS
$$
BEGIN
    h_seq := (engram_store_lock(p_store, p_default_limit)).seq + 1;
    SELECT c.config::text, c.state, c.steps INTO h_config, h_state, h_steps
    FROM context c WHERE c.store_id = p_store AND c.id = p_id FOR UPDATE;
    RETURN NEXT;
END
$$;
