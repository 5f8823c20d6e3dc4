-- A store's entries version: a number every change of the store's live entries moves on (a put, a forget, an erasure
-- of a live entry, an import), and nothing else does (a memory saved, a context's step appended, a document written).
-- A render is a function of a store's entries and its bound alone, so a render made when the store held this version
-- and this bound is the render of now while both still read the same: a replica keeps renders by them and reads only
-- the store's row to know whether one still holds (dev.engram.entries.render.RenderCache). The functions that write
-- entries keep it, in the statements that already write the store's row (R__entry_writes.sql, engram_entries_take);
-- rows written straight to the table (bench/run's seeds) are not seen by it, as they are not by the journal.
ALTER TABLE store ADD COLUMN entries_version bigint NOT NULL DEFAULT 0;
