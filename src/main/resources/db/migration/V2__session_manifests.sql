-- What each session was shown: the log of its manifest records, and the manifest in force.
-- A session may render a store that has no entries yet, so neither table refers to store.

CREATE TABLE session_manifest (
    store_id text COLLATE "C" NOT NULL,
    session  text COLLATE "C" NOT NULL,
    seq      integer     NOT NULL,
    -- The record exactly as written: a whole manifest, or a delta on the one in force before it.
    record   text        NOT NULL,
    -- The hash of the manifest in force after this record.
    hash     text        NOT NULL,
    at       timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (store_id, session, seq)
);

-- The manifest in force per session (its whole record), so a render compares one row instead of folding the log,
-- and the row a session's writers lock. seq 0 with the empty manifest means nothing recorded yet.
CREATE TABLE session_state (
    store_id text COLLATE "C" NOT NULL,
    session  text COLLATE "C" NOT NULL,
    seq      integer     NOT NULL,
    manifest text        NOT NULL,
    hash     text        NOT NULL,
    updated  timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (store_id, session)
);
