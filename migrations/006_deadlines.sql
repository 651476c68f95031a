-- 006_deadlines.sql: turn and decision deadlines, time banks, vacations.
--
-- Deadlines are rows, not timers: a row is opened and closed in the same
-- transaction as the append that changes who must act, and the deadline
-- worker of any pbemd process claims due rows with FOR UPDATE SKIP LOCKED.
-- Every time here is match time (clock.h), passed in by the service, never
-- the database's now(), so tests can move it.
--
-- Citus readiness: deadlines and time_banks grow with play and keep
-- match_id first in every key; vacations belong to a player (a small
-- reference table like players).

-- The deadline options a match was created with (no row: no deadlines).
CREATE TABLE match_deadlines (
    match_id          bigint PRIMARY KEY REFERENCES matches ON DELETE CASCADE,
    turn_hours        integer NOT NULL CHECK (turn_hours BETWEEN 1 AND 8760),
    reminder_hours    integer NOT NULL CHECK (reminder_hours >= 0),
    action            text NOT NULL
                      CHECK (action IN ('skip', 'default_move', 'forfeit',
                                        'notify_admins')),
    grace_hours       integer NOT NULL CHECK (grace_hours >= 0),
    time_bank_hours   integer NOT NULL CHECK (time_bank_hours >= 0),
    vacation_days_max integer NOT NULL CHECK (vacation_days_max >= 0),
    CHECK (reminder_hours < turn_hours)
);

-- One row per (match, seat, what is awaited): "turn:<seq>" (the seat has
-- had to act since event seq), "commit:<decision>" or "reveal:<decision>".
-- The budgets are copied from the match's options (and the seat's time
-- bank when the row opened) so that a vacation can re-plan the times from
-- started_at alone. closed_at IS NULL: the row is current. fired_at: the
-- action was applied (a notify_admins row stays current until the seat
-- acts, so it fires once).
CREATE TABLE deadlines (
    match_id          bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
    deadline_id       bigint GENERATED ALWAYS AS IDENTITY,
    seat              integer NOT NULL CHECK (seat >= 0),
    kind              text NOT NULL CHECK (kind IN ('turn', 'commit', 'reveal')),
    awaited           text NOT NULL,
    opened_seq        bigint NOT NULL,
    turn_seconds      bigint NOT NULL,
    reminder_seconds  bigint NOT NULL,
    grace_seconds     bigint NOT NULL,
    bank_seconds      bigint NOT NULL,
    started_at        timestamptz NOT NULL,
    remind_at         timestamptz,
    due_at            timestamptz NOT NULL,
    grace_end_at      timestamptz NOT NULL,
    fire_at           timestamptz NOT NULL,
    reminded_at       timestamptz,
    fired_at          timestamptz,
    closed_at         timestamptz,
    outcome           text,
    bank_used_seconds bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, deadline_id),
    UNIQUE (match_id, seat, awaited)
);
CREATE INDEX deadlines_current ON deadlines (match_id) WHERE closed_at IS NULL;
CREATE INDEX deadlines_remind ON deadlines (remind_at)
    WHERE closed_at IS NULL AND fired_at IS NULL AND reminded_at IS NULL;
CREATE INDEX deadlines_fire ON deadlines (fire_at)
    WHERE closed_at IS NULL AND fired_at IS NULL;

-- What is left of each seat's time bank.
CREATE TABLE time_banks (
    match_id          bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
    seat              integer NOT NULL CHECK (seat >= 0),
    remaining_seconds bigint NOT NULL CHECK (remaining_seconds >= 0),
    PRIMARY KEY (match_id, seat)
);

-- A player's declared absence: their clocks stop from starts_at to ends_at
-- in every match. A cancelled vacation pauses nothing.
CREATE TABLE vacations (
    player_id    bigint NOT NULL REFERENCES players,
    vacation_id  bigint GENERATED ALWAYS AS IDENTITY,
    starts_at    timestamptz NOT NULL,
    ends_at      timestamptz NOT NULL,
    cancelled_at timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, vacation_id),
    CHECK (ends_at > starts_at)
);
