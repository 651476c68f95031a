-- 011_sign_in.sql: a player's keys get a name and a way in by mail.
--
-- A key may be named by its owner ("laptop", "phone browser") so that the
-- list of keys says which one to revoke.
ALTER TABLE player_keys
    ADD COLUMN name text CHECK (name IS NULL OR length(name) BETWEEN 1 AND 80);
CREATE INDEX player_keys_player ON player_keys (player_id);

-- Sign-in links: a mail to a player's address carries a random token that
-- lets one new key into that account (POST /v1/players/me/keys), once,
-- within a few minutes. Only the token's BLAKE2b-256 digest is kept, so
-- the table cannot be read back into working links. Every request for a
-- link is a row (mailed or not), which is what the per-address rate limit
-- counts. Times are match time (clock.h), passed in by the service, so
-- tests can move them.
--
-- Citus readiness: a small reference table, like players.
CREATE TABLE sign_in_links (
    link_id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email        text NOT NULL CHECK (length(email) <= 254),
    player_id    bigint REFERENCES players,
    token_digest bytea UNIQUE CHECK (length(token_digest) = 32),
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    spent_at     timestamptz,
    spent_by_key text
);
CREATE INDEX sign_in_links_email ON sign_in_links (lower(email), created_at);

-- The sign-in mail waits in mail_answers (009) with its link until the
-- outbox worker has sent it; once sent (or given up), the token goes from
-- the row, so that only its digest above outlives the delivery.
CREATE FUNCTION sign_in_mail_forget_token() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status IN ('sent', 'dead') THEN
        NEW.body := regexp_replace(NEW.body, '/sign-in/[A-Za-z0-9_-]+',
                                   '/sign-in/(removed once sent)', 'g');
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER mail_answers_sign_in_sent BEFORE UPDATE OF status
    ON mail_answers FOR EACH ROW WHEN (NEW.kind = 'sign_in')
    EXECUTE FUNCTION sign_in_mail_forget_token();
