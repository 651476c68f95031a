-- 013_delegates.sql: bots' keys acting for players (delegated keys), and
-- the body format of a webhook (Standard Webhooks, or what Slack's and
-- Discord's incoming webhooks accept).
--
-- A grant is a small per-player table, like player_keys: it grows with
-- players, not with play. The grant's own signed request is kept whole
-- (grant_request, the JSON the events keep as "request": key id, signature
-- input and signature, method, target, content digest, body), so an export
-- can carry it and anyone can check that the player signed it.

CREATE TABLE delegates (
    delegate_id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id     bigint NOT NULL REFERENCES players,
    key_id        text NOT NULL CHECK (length(key_id) BETWEEN 3 AND 64),
    public_key    bytea NOT NULL CHECK (length(public_key) = 32),
    name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    -- a non-empty subset of view, move, join
    scope         text[] NOT NULL CHECK (cardinality(scope) BETWEEN 1 AND 3),
    -- NULL: every match of the player
    match_ids     bigint[],
    expires_at    timestamptz NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    revoked_at    timestamptz,
    grant_request text NOT NULL
);
CREATE INDEX delegates_key ON delegates (key_id, player_id);
CREATE INDEX delegates_player ON delegates (player_id, created_at);

ALTER TABLE webhooks
    ADD COLUMN format text NOT NULL DEFAULT 'standard'
        CHECK (format IN ('standard', 'slack', 'discord'));
