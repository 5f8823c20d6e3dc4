-- How many live entries a store holds, kept on its row. A create checked the store's limit by counting its entries
-- (up to the limit) under the store's lock, so with a limit raised to a million a create in a store of a million
-- entries read a million index entries while every other writer of the store waited; the scale workload of
-- bench/run showed it. The count is kept by statement triggers on entry, so every writer of the table keeps it (the
-- write functions, the import, an erasure, rows seeded straight into the table), and a statement that inserts or
-- deletes many rows updates each store's row once. The functions are R__entry_writes.sql's (defined here first, as
-- the triggers need them).
ALTER TABLE store ADD COLUMN entries integer NOT NULL DEFAULT 0;

UPDATE store s SET entries = c.n FROM (SELECT store_id, count(*) AS n FROM entry GROUP BY store_id) c
WHERE c.store_id = s.id;

CREATE FUNCTION engram_entries_added() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
    UPDATE store s SET entries = s.entries + a.n
    FROM (SELECT store_id, count(*) AS n FROM added GROUP BY store_id) a WHERE s.id = a.store_id;
    RETURN NULL;
END
$$;

CREATE FUNCTION engram_entries_removed() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
    UPDATE store s SET entries = s.entries - r.n
    FROM (SELECT store_id, count(*) AS n FROM removed GROUP BY store_id) r WHERE s.id = r.store_id;
    RETURN NULL;
END
$$;

CREATE TRIGGER entries_added AFTER INSERT ON entry REFERENCING NEW TABLE AS added FOR EACH STATEMENT
    EXECUTE FUNCTION engram_entries_added();
CREATE TRIGGER entries_removed AFTER DELETE ON entry REFERENCING OLD TABLE AS removed FOR EACH STATEMENT
    EXECUTE FUNCTION engram_entries_removed();
