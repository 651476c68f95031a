-- 009_mail.sql: play by email. Mail that comes in (each message handled
-- once), the single-use reply addresses spent, invitations by address,
-- new addresses waiting for confirmation, answers waiting to go out, and
-- addresses whose mail bounces.
--
-- Citus readiness: all of these are small tables keyed by message,
-- address or invitation, not by match; none is joined to another match's
-- rows.

-- A player is found by address when their mail comes in.
CREATE INDEX players_email ON players (lower(email)) WHERE email IS NOT NULL;

-- One row per message handled, written in the transaction that finishes
-- handling it, so the same message again (resent, fetched again after a
-- crash, delivered twice) changes nothing and gets no second answer.
-- message_key is "id:<Message-ID>" or, without one, "sha256:<hex>".
CREATE TABLE mail_messages (
    message_key  text PRIMARY KEY CHECK (length(message_key) <= 1000),
    sha256       bytea NOT NULL CHECK (length(sha256) = 32),
    sender       text NOT NULL,
    via          text NOT NULL CHECK (via IN ('imap', 'http')),
    -- what came of it: "answered", "ignored:<why>", "bounce", "limited"
    outcome      text NOT NULL,
    player_id    bigint,
    received_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_messages_sender ON mail_messages (sender, received_at);

-- A reply address is single-use: its token's id is spent by the first
-- message that uses it.
CREATE TABLE mail_tokens_spent (
    token_id     text PRIMARY KEY CHECK (length(token_id) <= 64),
    message_key  text NOT NULL,
    spent_at     timestamptz NOT NULL DEFAULT now()
);

-- A seated player (or the creator) invites someone by address; the
-- answer "join" seats them.
CREATE TABLE invitations (
    invitation_id bigint PRIMARY KEY,
    match_id      bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
    email         text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
    name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    invited_by    bigint NOT NULL REFERENCES players,
    created_at    timestamptz NOT NULL DEFAULT now(),
    accepted_at   timestamptz,
    player_id     bigint
);
CREATE INDEX invitations_match ON invitations (match_id);

-- A new address that wrote to the service: registered only once it
-- answers the confirmation mail; its first mail's commands run then.
CREATE TABLE mail_confirmations (
    confirmation_id bigint PRIMARY KEY,
    email           text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
    name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    commands        text NOT NULL CHECK (length(commands) <= 65536),
    created_at      timestamptz NOT NULL DEFAULT now(),
    confirmed_at    timestamptz,
    player_id       bigint
);

-- Answers to mail, confirmations and invitations, waiting for the outbox
-- worker. Not in notifications: they belong to no match.
CREATE TABLE mail_answers (
    answer_id       bigserial PRIMARY KEY,
    to_address      text NOT NULL CHECK (length(to_address) <= 254),
    subject         text NOT NULL CHECK (length(subject) <= 998),
    body            text NOT NULL,
    reply_to        text,
    in_reply_to     text,
    "references"    text,
    -- "answer" (to a mail: Auto-Submitted: auto-replied), "confirmation",
    -- "invitation"
    kind            text NOT NULL,
    status          text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'sent', 'dead')),
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    sent_at         timestamptz
);
CREATE INDEX mail_answers_due ON mail_answers (next_attempt_at)
    WHERE status = 'pending';

-- Addresses whose mail bounces (a DSN for the service's own mail), shown
-- in the player's notification status.
CREATE TABLE mail_failures (
    email        text PRIMARY KEY CHECK (length(email) <= 254),
    failed_at    timestamptz NOT NULL DEFAULT now(),
    reason       text NOT NULL,
    bounces      integer NOT NULL DEFAULT 1
);
