-- The trigger functions of hybrid recall (V13 made the tables, the sequence recall_change and the triggers), in
-- their one current definition: a repeatable migration, applied after every V migration and again whenever this
-- file changes. Keep each function's name, arguments and result.

-- A memory saved or changed takes the next recall change; made keeps the change it was first saved with. A new
-- content drops its vector and queues the memory to embed again.
CREATE OR REPLACE FUNCTION engram_memory_changed() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
    NEW.change := nextval('recall_change');
    IF TG_OP = 'INSERT' THEN
        NEW.made := NEW.change;
    ELSE
        NEW.made := OLD.made;
    END IF;
    IF TG_OP = 'INSERT' OR NEW.content IS DISTINCT FROM OLD.content THEN
        IF TG_OP = 'UPDATE' THEN
            DELETE FROM memory_vector WHERE store_id = NEW.store_id AND id = NEW.id;
        END IF;
        INSERT INTO embed_queue AS q (store_id, id, change) VALUES (NEW.store_id, NEW.id, NEW.change)
        ON CONFLICT (store_id, id) DO UPDATE SET change = excluded.change, claimed_until = NULL, attempts = 0;
    END IF;
    RETURN NEW;
END
$$;

-- Memories deleted are noted in memory_gone, each with a recall change, so that an index drops them.
CREATE OR REPLACE FUNCTION engram_memory_gone() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
    INSERT INTO memory_gone (store_id, id, change) SELECT g.store_id, g.id, nextval('recall_change') FROM gone g;
    RETURN NULL;
END
$$;

-- A vector written takes the next recall change.
CREATE OR REPLACE FUNCTION engram_vector_changed() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
    NEW.change := nextval('recall_change');
    RETURN NEW;
END
$$;
