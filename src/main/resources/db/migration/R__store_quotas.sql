-- The quota of stores per key, in its one current definition (a repeatable migration, applied after every V
-- migration and again whenever this file changes; keep its name, arguments and result). The table store_creator
-- is V7's.
--
-- Claims p_store for p_creator unless the creator already made p_max stores (live ones, or claims of the last
-- minute). True when the store is the creator's to create now: claimed, or claimed before by the same creator, or
-- existing by now. Serialised per creator by an advisory lock.
CREATE OR REPLACE FUNCTION engram_claim_store(p_store text, p_creator text, p_max integer) RETURNS boolean
    LANGUAGE plpgsql AS
$$
DECLARE
    v_count integer;
BEGIN
    IF EXISTS (SELECT 1 FROM store s WHERE s.id = p_store)
       OR EXISTS (SELECT 1 FROM store_creator c WHERE c.store_id = p_store AND c.creator = p_creator) THEN
        RETURN true;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtextextended('store_creator/' || p_creator, 0));
    SELECT count(*) INTO v_count FROM store_creator c
    WHERE c.creator = p_creator
      AND (c.claimed_at > now() - interval '1 minute' OR EXISTS (SELECT 1 FROM store s WHERE s.id = c.store_id));
    IF v_count >= p_max THEN
        RETURN false;
    END IF;
    INSERT INTO store_creator (store_id, creator) VALUES (p_store, p_creator)
    ON CONFLICT (store_id) DO UPDATE SET creator = excluded.creator, claimed_at = now()
    WHERE NOT EXISTS (SELECT 1 FROM store s WHERE s.id = excluded.store_id);
    RETURN true;
END
$$;
