-- 016_email_confirmations.sql: an address belongs to an account only once
-- a link mailed to it was opened.
--
-- players.email holds only an address its owner confirmed: every mail the
-- service sends to an account, every sign-in link and every lookup by
-- address (the mail door) reads it, so an address someone merely typed
-- gets nothing but its confirmation link. A registration with an address,
-- and a request to add or change one, make a row here and mail the link;
-- opening it sets players.email (the old address, if any, stays until
-- then). Only the token's BLAKE2b-256 digest is kept. Times are match time
-- (clock.h). Addresses on accounts before this migration were accepted as
-- they stood (the mail door's were confirmed by a reply; registrations'
-- were not), and stay.
--
-- Citus readiness: a small reference table, like players.
CREATE TABLE email_confirmations (
    confirmation_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id       bigint NOT NULL REFERENCES players,
    email           text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
    token_digest    bytea NOT NULL UNIQUE CHECK (length(token_digest) = 32),
    created_at      timestamptz NOT NULL,
    expires_at      timestamptz NOT NULL,
    confirmed_at    timestamptz
);
CREATE INDEX email_confirmations_email
    ON email_confirmations (lower(email), created_at);
CREATE INDEX email_confirmations_player
    ON email_confirmations (player_id, created_at);

-- As for sign-in links (011): once the mail is sent (or given up), the
-- link goes from the outbox's copy, so that only the digest above
-- outlives the delivery. One function forgets both kinds of link.
CREATE OR REPLACE FUNCTION sign_in_mail_forget_token() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status IN ('sent', 'dead') THEN
        NEW.body := regexp_replace(
            regexp_replace(NEW.body, '/sign-in/[A-Za-z0-9_-]+',
                           '/sign-in/(removed once sent)', 'g'),
            '/email-confirmations[?]token=[A-Za-z0-9_-]+',
            '/email-confirmations?token=(removed once sent)', 'g');
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER mail_answers_email_confirmation_sent BEFORE UPDATE OF status
    ON mail_answers FOR EACH ROW WHEN (NEW.kind = 'email_confirmation')
    EXECUTE FUNCTION sign_in_mail_forget_token();
