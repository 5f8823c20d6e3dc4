-- When each cached tool result was cached, which the console's listing of a context's cache shows (issue 26). A
-- result cached before this migration has none (null): Engram did not keep the time then. An export carries the
-- column with the rest of the row (docs/export-format.md), and an archive written before it imports with none.
ALTER TABLE tool_result ADD COLUMN cached_at timestamptz;
