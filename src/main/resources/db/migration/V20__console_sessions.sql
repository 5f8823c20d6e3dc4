-- The console's sign-ins (docs/console.md): a row a session, found by the SHA-256 of the random token its cookie
-- holds (never the token). A session opened with an API key or the operator key holds that key's hash, so every
-- request of the session is the key as it is now: once the key is revoked, the session is refused (within the key
-- cache's second). A session opened with a JWT holds the caller the token named, its grants as the keys API writes
-- them, and ends when the token does. csrf is the token every form of the session must carry back.
CREATE TABLE console_session (
    id          text PRIMARY KEY,
    key_hash    text,
    caller_id   text NOT NULL,
    caller_name text NOT NULL,
    grants      jsonb,
    csrf        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    CHECK ((key_hash IS NULL) <> (grants IS NULL))
);
CREATE INDEX console_session_expires ON console_session (expires_at);
