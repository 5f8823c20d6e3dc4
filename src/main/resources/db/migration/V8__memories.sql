-- Memories (seed 003): typed facts in banks, in a store beside its entries, journaled in the store's one journal.

-- The journal takes records of other tiers: kind is 'entry' for an entry's record (and an erasure record), else what
-- happened (memory.saved, memory.deleted, ...), with the record's JSON in record and the thing's key in name.
ALTER TABLE journal ADD COLUMN kind text NOT NULL DEFAULT 'entry';
ALTER TABLE journal ADD COLUMN record jsonb;

-- One memory. bank is the bank id its scope normalises to (global, team, user:alice); scope_type and scope_id are
-- the scope as given. Tags, keywords and evidence are sorted sets; revisions the history, oldest first, as
-- [{"at", "by", "summary"}]. haystack is what a search matches: the content, tags and keywords, lower-cased.
CREATE TABLE memory (
    store_id       text COLLATE "C"   NOT NULL REFERENCES store (id),
    id             text COLLATE "C"   NOT NULL,
    bank           text COLLATE "C"   NOT NULL,
    scope_type     text               NOT NULL,
    scope_id       text               NOT NULL,
    type           text               NOT NULL,
    content        text               NOT NULL,
    importance     double precision   NOT NULL,
    confidence     double precision   NOT NULL,
    tags           text[]             NOT NULL,
    keywords       text[]             NOT NULL,
    evidence       text[]             NOT NULL,
    source         text               NOT NULL,
    valid_from     timestamptz        NOT NULL,
    valid_to       timestamptz,
    superseded_by  text               NOT NULL,
    conflicting    boolean            NOT NULL,
    archived       boolean            NOT NULL,
    archived_at    timestamptz,
    archive_reason text               NOT NULL,
    revisions      jsonb              NOT NULL,
    created_at     timestamptz        NOT NULL,
    updated_at     timestamptz        NOT NULL,
    haystack       text               NOT NULL,
    PRIMARY KEY (store_id, id)
);

-- Lists: a bank by importance, then newest; every memory newest first.
CREATE INDEX memory_by_bank ON memory (store_id, bank, importance DESC, created_at DESC, id);
CREATE INDEX memory_by_created ON memory (store_id, created_at DESC, id);

-- Search: a trigram index led by the store, as entry_search is (V3), so a store's search reads only its own rows.
CREATE INDEX memory_search ON memory USING gin ((store_id || ''), haystack gin_trgm_ops);

-- How often each memory was used. A counter apart from the memory, so that counting an access neither takes the
-- store's write lock nor writes a journal record.
CREATE TABLE memory_access (
    store_id      text COLLATE "C" NOT NULL,
    id            text COLLATE "C" NOT NULL,
    count         bigint           NOT NULL,
    last_accessed timestamptz      NOT NULL,
    PRIMARY KEY (store_id, id),
    FOREIGN KEY (store_id, id) REFERENCES memory (store_id, id) ON DELETE CASCADE
);

-- A bank's context slots (SOUL, AGENTS, ...): texts an agent puts in its prompt.
CREATE TABLE bank_slot (
    store_id text COLLATE "C" NOT NULL REFERENCES store (id),
    bank     text COLLATE "C" NOT NULL,
    slot     text COLLATE "C" NOT NULL,
    text     text             NOT NULL,
    PRIMARY KEY (store_id, bank, slot)
);

-- A bank's settings for reflection: its mission, directives and dispositions.
CREATE TABLE bank_settings (
    store_id   text COLLATE "C" NOT NULL REFERENCES store (id),
    bank       text COLLATE "C" NOT NULL,
    mission    text             NOT NULL,
    directives jsonb            NOT NULL,
    skepticism integer          NOT NULL,
    literalism integer          NOT NULL,
    empathy    integer          NOT NULL,
    PRIMARY KEY (store_id, bank)
);

-- Mental models: per store (the reference keeps them global; here the store is the tenant).
CREATE TABLE mental_model (
    store_id    text COLLATE "C" NOT NULL REFERENCES store (id),
    id          text COLLATE "C" NOT NULL,
    name        text             NOT NULL,
    description text             NOT NULL,
    content     text             NOT NULL,
    tags        text[]           NOT NULL,
    updated_at  timestamptz      NOT NULL,
    PRIMARY KEY (store_id, id)
);
