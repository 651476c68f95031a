-- 003_notifications.sql: webhooks, one outbox row per recipient and channel,
-- every delivery attempt, and a wake-up for the outbox worker.
--
-- Citus readiness: outbox and outbox_attempts grow with play and keep
-- match_id first in every key; webhooks is a small table of endpoints.

-- An endpoint that receives Standard Webhooks deliveries. match_id NULL: a
-- player's endpoint (a bot acting for player_id in every match); otherwise
-- a match relay registered by player_id, which gets only public data. The
-- whsec_ secret is kept encrypted with the service key (not in the
-- database in clear) and shown once, at registration.
CREATE TABLE webhooks (
    webhook_id      bigint PRIMARY KEY,
    player_id       bigint NOT NULL,
    match_id        bigint,
    url             text NOT NULL CHECK (length(url) BETWEEN 10 AND 2000),
    sealed_secret   bytea NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    disabled_at     timestamptz,
    disabled_reason text
);
CREATE INDEX webhooks_player ON webhooks (player_id) WHERE match_id IS NULL;
CREATE INDEX webhooks_match ON webhooks (match_id) WHERE match_id IS NOT NULL;

-- channel is 'email' or 'webhook:<webhook_id>'; player_id 0 for a match
-- relay's row. next_attempt_at doubles as the lease of a claimed row.
ALTER TABLE outbox
    ADD COLUMN webhook_id bigint,
    ADD COLUMN last_error text,
    ADD COLUMN sent_at    timestamptz;
CREATE INDEX outbox_player ON outbox (player_id, created_at);
CREATE INDEX outbox_dead ON outbox (created_at) WHERE status = 'dead';

-- Rows queued before channels existed cannot be delivered anywhere.
UPDATE outbox SET status = 'dead',
       last_error = 'queued before notification channels existed'
 WHERE channel = 'default' AND status = 'pending';

-- Every attempt to deliver an outbox row: when, how it went, why.
CREATE TABLE outbox_attempts (
    match_id     bigint NOT NULL,
    outbox_id    bigint NOT NULL,
    attempt_id   bigint GENERATED ALWAYS AS IDENTITY,
    attempt      integer NOT NULL CHECK (attempt >= 1),
    attempted_at timestamptz NOT NULL DEFAULT now(),
    duration_ms  integer NOT NULL,
    outcome      text NOT NULL
                 CHECK (outcome IN ('sent', 'failed', 'gone', 'blocked', 'skipped')),
    code         integer,
    error        text,
    PRIMARY KEY (match_id, outbox_id, attempt_id)
);

-- NOTIFY is delivered on commit: the worker wakes when the event that
-- queued the rows is visible.
CREATE FUNCTION outbox_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('pbem_outbox', '');
    RETURN NULL;
END
$$;
CREATE TRIGGER outbox_wake AFTER INSERT ON outbox
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_wake();
