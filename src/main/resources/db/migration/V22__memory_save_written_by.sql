-- A memory's save names its writer too (journal.written_by, V19): engram_memory_save takes p_by as its last argument
-- from now on. Its definition without it goes; the repeatable migration (applied after this one) creates it with it.
DROP FUNCTION IF EXISTS engram_memory_save(text, integer, integer, text, text, text, text, text, text,
                                           double precision, double precision, text[], text[], text[], text,
                                           timestamptz, timestamptz, text, boolean, boolean, timestamptz, text,
                                           jsonb, timestamptz, timestamptz, text, timestamptz, jsonb, timestamptz);
