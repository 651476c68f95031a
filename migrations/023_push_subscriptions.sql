-- 023_push_subscriptions.sql: a browser's Web Push subscription (RFC 8030),
-- one row per player and push service endpoint.
--
-- The page subscribes with the service's VAPID key (RFC 8292) and hands
-- over what PushSubscription.toJSON() gives: the endpoint URL the push
-- service made for that browser, the browser's P-256 public key (p256dh,
-- 65 bytes uncompressed) and its 16-byte auth secret, with which every
-- notice is encrypted (RFC 8291) so the push service reads nothing. A
-- notice goes through the outbox on channel 'push:<subscription_id>'. A
-- push service that answers 404 or 410 has dropped the subscription: the
-- row is disabled and gets nothing more; so is one its owner turned off.
--
-- Citus readiness: a small reference table, like webhooks.
CREATE TABLE push_subscriptions (
    subscription_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id       bigint NOT NULL REFERENCES players,
    endpoint        text NOT NULL CHECK (length(endpoint) BETWEEN 10 AND 2000),
    p256dh          bytea NOT NULL CHECK (length(p256dh) = 65),
    auth            bytea NOT NULL CHECK (length(auth) = 16),
    created_at      timestamptz NOT NULL DEFAULT now(),
    disabled_at     timestamptz,
    disabled_reason text,
    UNIQUE (player_id, endpoint)
);
CREATE INDEX push_subscriptions_player
    ON push_subscriptions (player_id) WHERE disabled_at IS NULL;
