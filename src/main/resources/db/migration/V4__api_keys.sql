-- API keys. Only the SHA-256 of a key's secret is kept ('sha256:' and hex), so a copy of this table reveals no key.
-- A revoked key keeps its row (revoked_at set) for the audit; a lookup finds only live ones.
CREATE TABLE api_key (
    id         text COLLATE "C" PRIMARY KEY,
    name       text        NOT NULL,
    hash       text        NOT NULL UNIQUE,
    -- [{"stores": "acme-*", "role": "write", "scopes": ["user"], "read_scopes": ["rules"]}], as the keys API takes it.
    grants     jsonb       NOT NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    revoked_at timestamptz
);
