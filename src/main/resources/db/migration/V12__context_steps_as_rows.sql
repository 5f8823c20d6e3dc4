-- A context's steps, one row each, in order (idx from 0). Before, the steps were part of context.state, which every
-- change rewrote whole: appending one step to a context of 10,000 rewrote megabytes of TOAST and of WAL. Now a change
-- writes only the steps it changed (an append inserts its rows; a replacement or a truncation deletes from the first
-- changed index on), and context.state keeps the rest. A state written before this migration still carries its steps
-- and no rows; Engram reads those steps from it and moves them to rows on the context's next change.
CREATE TABLE context_step (
    store_id   text COLLATE "C" NOT NULL,
    context_id text COLLATE "C" NOT NULL,
    idx        integer          NOT NULL,
    step       text             NOT NULL,
    PRIMARY KEY (store_id, context_id, idx),
    FOREIGN KEY (store_id, context_id) REFERENCES context (store_id, id) ON DELETE CASCADE
);
