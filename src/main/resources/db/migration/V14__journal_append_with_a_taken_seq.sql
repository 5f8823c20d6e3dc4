-- engram_journal_append gains p_seq (R__journal.sql): the seq a write function took with the store's lock, in one
-- statement, through engram_store_take. A new argument is a new signature, which CREATE OR REPLACE would add beside
-- the old one, and a call by name would then be ambiguous; so the old signature goes here, before the repeatable
-- migrations run and define the function again. A database that never had it (a new one: R__journal.sql defines
-- it) has nothing to drop.
DROP FUNCTION IF EXISTS engram_journal_append(text, text, text, timestamptz, jsonb, text, text, jsonb, text,
                                              timestamptz, boolean, text, text, text, jsonb);
