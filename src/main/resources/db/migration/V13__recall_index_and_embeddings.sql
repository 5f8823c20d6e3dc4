-- Hybrid recall (issue 21): each memory's vector beside it, a durable queue of memories to embed, and the change
-- numbers by which every replica keeps its in-memory index of a store exactly as the database has it.
--
-- recall_change numbers every change a replica's index must see: a memory saved or changed (memory.change), a
-- vector written (memory_vector.change), memories deleted (memory_gone). Every writer of these tables holds the
-- store's row lock (a memory's save, change or delete through the journal's seq; the embedder takes it to write a
-- vector), so within one store the numbers commit in order, and a replica that has seen every change up to N of a
-- store has only to read those above N.

CREATE SEQUENCE recall_change;

-- made: the order memories were first saved in (their neighbours in a bank are the ones saved just before and after).
ALTER TABLE memory ADD COLUMN change bigint NOT NULL DEFAULT 0;
ALTER TABLE memory ADD COLUMN made bigint NOT NULL DEFAULT 0;
UPDATE memory SET change = nextval('recall_change');
UPDATE memory SET made = change;
CREATE INDEX memory_by_change ON memory (store_id, change);

-- A memory's vector: the model that made it, its length, and the floats (4 bytes each, big-endian, as float4send writes them). A change of
-- the memory's content deletes it (the trigger below) and queues the memory again.
CREATE TABLE memory_vector (
    store_id    text COLLATE "C" NOT NULL,
    id          text COLLATE "C" NOT NULL,
    model       text             NOT NULL,
    dimensions  integer          NOT NULL,
    vector      bytea            NOT NULL,
    embedded_at timestamptz      NOT NULL,
    change      bigint           NOT NULL,
    PRIMARY KEY (store_id, id),
    FOREIGN KEY (store_id, id) REFERENCES memory (store_id, id) ON DELETE CASCADE
);
CREATE INDEX memory_vector_by_change ON memory_vector (store_id, change);

-- Memories to embed, oldest change first; claimed_until holds one for the replica embedding it, so that a replica
-- that dies leaves it to another when the claim ends. No foreign key: the row is queued before the memory's insert
-- (a before-trigger), and an embedder drops the entry of a memory deleted since.
CREATE TABLE embed_queue (
    store_id      text COLLATE "C" NOT NULL,
    id            text COLLATE "C" NOT NULL,
    change        bigint           NOT NULL,
    claimed_until timestamptz,
    attempts      integer          NOT NULL DEFAULT 0,
    PRIMARY KEY (store_id, id)
);
CREATE INDEX embed_queue_by_change ON embed_queue (change);
INSERT INTO embed_queue (store_id, id, change) SELECT store_id, id, change FROM memory;

-- Memories deleted, so that an index drops them; kept an hour (an index that has not looked for longer reloads).
CREATE TABLE memory_gone (
    store_id text COLLATE "C" NOT NULL,
    id       text COLLATE "C" NOT NULL,
    change   bigint           NOT NULL,
    at       timestamptz      NOT NULL DEFAULT now()
);
CREATE INDEX memory_gone_by_change ON memory_gone (store_id, change);
CREATE INDEX memory_gone_by_time ON memory_gone (at);

CREATE FUNCTION engram_memory_changed() RETURNS trigger LANGUAGE plpgsql AS
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
CREATE TRIGGER memory_changed BEFORE INSERT OR UPDATE ON memory FOR EACH ROW EXECUTE FUNCTION engram_memory_changed();

CREATE FUNCTION engram_memory_gone() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
    INSERT INTO memory_gone (store_id, id, change) SELECT g.store_id, g.id, nextval('recall_change') FROM gone g;
    RETURN NULL;
END
$$;
CREATE TRIGGER memory_gone AFTER DELETE ON memory REFERENCING OLD TABLE AS gone FOR EACH STATEMENT
    EXECUTE FUNCTION engram_memory_gone();

CREATE FUNCTION engram_vector_changed() RETURNS trigger LANGUAGE plpgsql AS
$$
BEGIN
    NEW.change := nextval('recall_change');
    RETURN NEW;
END
$$;
CREATE TRIGGER vector_changed BEFORE INSERT OR UPDATE ON memory_vector FOR EACH ROW
    EXECUTE FUNCTION engram_vector_changed();

-- A bank's ranking when a search of it names none (null: hybrid).
ALTER TABLE bank_settings ADD COLUMN ranking text;
