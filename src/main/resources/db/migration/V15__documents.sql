-- Documents (ADR 0009): path-addressed text files of a store, beside its entries, what Claude's memory tool and the
-- Memory Stores API address. One row per live document; its versions are its records in the store's one journal
-- (kinds document.created, document.modified, document.deleted, each with the document's JSON and content), so a
-- document's history, a follower and an export read the same records. The id is stable across renames; the path is
-- unique among the store's live documents and compared byte by byte, so a directory is a range of the index.
CREATE TABLE document (
    store_id   text COLLATE "C" NOT NULL REFERENCES store (id),
    id         text COLLATE "C" NOT NULL,
    path       text COLLATE "C" NOT NULL,
    content    text             NOT NULL,
    -- The hex SHA-256 of the content's UTF-8 bytes, what preconditions compare.
    sha256     text             NOT NULL,
    size       integer          NOT NULL,
    created_at timestamptz      NOT NULL,
    updated_at timestamptz      NOT NULL,
    -- The seq of the document's last record: its current version.
    version    bigint           NOT NULL,
    PRIMARY KEY (store_id, id),
    UNIQUE (store_id, path)
);

-- How many live documents a store holds, kept by every create and delete under the store's row lock, so the quota
-- engram.limits.documents-per-store is checked without a count.
ALTER TABLE store ADD COLUMN documents integer NOT NULL DEFAULT 0;

-- A store's attributes as a memory store of the Memory Stores API: its name, description and metadata, and whether
-- it is archived (read-only). A store that has none answers with its id as its name.
CREATE TABLE store_profile (
    store_id    text COLLATE "C" PRIMARY KEY REFERENCES store (id),
    name        text        NOT NULL,
    description text        NOT NULL DEFAULT '',
    metadata    jsonb       NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    archived_at timestamptz
);

-- The versions of a store's documents, newest first, without reading its other records.
CREATE INDEX journal_document_versions ON journal (store_id, seq)
    WHERE kind IN ('document.created', 'document.modified', 'document.deleted');
