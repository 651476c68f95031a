-- 001_foundation.sql: players and their keys, matches, seats, the event log,
-- snapshots, request nonces and the outbox.
--
-- Citus readiness: every table that grows with play has match_id first in
-- its primary key and no foreign key to another match's rows; players and
-- their keys are small reference tables.

CREATE TABLE players (
    player_id   bigint PRIMARY KEY,
    name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    email       text CHECK (email IS NULL OR length(email) <= 254),
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE player_keys (
    key_id      text PRIMARY KEY,
    player_id   bigint NOT NULL REFERENCES players,
    public_key  bytea NOT NULL UNIQUE CHECK (length(public_key) = 32),
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);

CREATE TABLE matches (
    match_id        bigint PRIMARY KEY,
    game            text NOT NULL,
    engine_version  integer NOT NULL,
    options         jsonb NOT NULL,
    seat_count      integer NOT NULL CHECK (seat_count BETWEEN 1 AND 16),
    status          text NOT NULL CHECK (status IN ('open', 'active', 'finished')),
    head_seq        bigint NOT NULL CHECK (head_seq >= 0),
    head_hash       bytea NOT NULL CHECK (length(head_hash) = 32),
    -- The match seed, encrypted with the service key (never in clear here).
    sealed_seed     bytea NOT NULL,
    created_by      bigint NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX matches_status ON matches (status, updated_at);

CREATE TABLE seats (
    match_id    bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
    seat        integer NOT NULL CHECK (seat >= 0),
    player_id   bigint NOT NULL,
    joined_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, seat),
    UNIQUE (match_id, player_id)
);
CREATE INDEX seats_player ON seats (player_id);

-- The append-only, hash-chained log. body is the event's canonical JSON;
-- hash = BLAKE2b-256(prev_hash || body). (match_id, seq) unique turns a
-- lost race into a conflict, never a gap or a duplicate.
CREATE TABLE events (
    match_id    bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
    seq         bigint NOT NULL CHECK (seq >= 1),
    kind        text NOT NULL,
    seat        integer,
    body        text NOT NULL,
    prev_hash   bytea NOT NULL CHECK (length(prev_hash) = 32),
    hash        bytea NOT NULL CHECK (length(hash) = 32),
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, seq)
);

-- Engine state after event seq, so a load replays only what follows.
CREATE TABLE snapshots (
    match_id        bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
    seq             bigint NOT NULL,
    engine_version  integer NOT NULL,
    state           text NOT NULL,
    PRIMARY KEY (match_id, seq)
);

-- One row per signed request that changed something: a retry with the same
-- key and nonce gets the stored answer instead of a second application.
CREATE TABLE request_nonces (
    key_id          text NOT NULL,
    nonce           text NOT NULL,
    request_digest  bytea NOT NULL,
    status          integer NOT NULL,
    response        text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (key_id, nonce)
);

-- Who must be told what, written in the same transaction as the event.
CREATE TABLE outbox (
    match_id        bigint NOT NULL,
    outbox_id       bigint GENERATED ALWAYS AS IDENTITY,
    seq             bigint NOT NULL,
    player_id       bigint NOT NULL,
    channel         text NOT NULL,
    reason          text NOT NULL,
    payload         jsonb NOT NULL,
    status          text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'sent', 'dead')),
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, outbox_id),
    UNIQUE (match_id, seq, player_id, channel, reason)
);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'pending';
