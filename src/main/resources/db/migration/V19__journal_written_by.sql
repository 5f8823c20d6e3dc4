-- Who made each change: the writer's key ID (key_...), jwt: and the token's subject, or operator, as the request
-- that made it was authenticated; '' where Engram did not know (records written before this column, changes no
-- request made, such as an embedding or a scheduled reflection). The console's journal shows it, and a record's JSON
-- carries it as "by" (docs/journal-format.md). The write functions take it as p_by (R__journal.sql,
-- R__entry_writes.sql); an erasure's record is written by its eraser.
ALTER TABLE journal ADD COLUMN written_by text NOT NULL DEFAULT '';

-- The write functions take p_by as their last argument from now on: their definitions without it go, and the
-- repeatable migrations (applied after this one) create them with it.
DROP FUNCTION IF EXISTS engram_journal_append(text, text, text, timestamptz, jsonb, text, text, jsonb, text,
                                              timestamptz, boolean, text, text, text, jsonb, bigint);
DROP FUNCTION IF EXISTS engram_put(text, integer, text, text, text, jsonb, text, text, text, text, text);
DROP FUNCTION IF EXISTS engram_forget(text, text, text, text, text, text);
DROP FUNCTION IF EXISTS engram_put_once(text, text, text, text, text, integer, text, text, text, jsonb, text, text,
                                        text, text, text);
DROP FUNCTION IF EXISTS engram_forget_once(text, text, text, text, text, text, text, text, text, text);
