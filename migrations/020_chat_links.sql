-- 020_chat_links.sql: one-time codes that link a Discord or Slack user to
-- a player (service/play/chat_links.h).
--
-- A player asks for a code (on the page, by mail, with `pbem chat-link`)
-- and types it in the chat (`/pbem link CODE`); the chat user is then a
-- delegate of the player: a row of delegates whose key_id names the chat
-- user ("discord:<id>", "slack:<team>:<id>"), with the usual scope,
-- matches and expiry, and revoked like any grant. Only the BLAKE2b-256
-- digest of a code is kept, never the code. A small per-player table,
-- like delegates: it grows with players, not with play.
CREATE TABLE chat_link_codes (
    code_digest bytea PRIMARY KEY CHECK (length(code_digest) = 32),
    player_id   bigint NOT NULL REFERENCES players,
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz,
    -- the chat user the code linked (key_id of the grant it made)
    used_by     text CHECK (length(used_by) BETWEEN 3 AND 64)
);
CREATE INDEX chat_link_codes_player ON chat_link_codes (player_id, created_at);
