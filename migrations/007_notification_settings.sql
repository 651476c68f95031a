-- 007_notification_settings.sql: what each player wants to be told, and
-- when; nudges between players; notifications that became pointless.
--
-- Citus readiness: notification_settings is a small per-player table;
-- nudges grows with play and keeps match_id first in its key.

-- No row means the defaults: every channel, no quiet hours, one email per
-- notification, no repeated reminders.
CREATE TABLE notification_settings (
    player_id      bigint PRIMARY KEY,
    email          boolean NOT NULL DEFAULT true,
    webhooks       boolean NOT NULL DEFAULT true,
    time_zone      text NOT NULL DEFAULT 'UTC' CHECK (length(time_zone) <= 64),
    -- Local minutes of the day; both NULL or both set, start <> end. A
    -- window may wrap midnight (22:00–07:00).
    quiet_start    smallint CHECK (quiet_start BETWEEN 0 AND 1439),
    quiet_end      smallint CHECK (quiet_end BETWEEN 0 AND 1439),
    -- One email a day at this local hour with every match waiting for the
    -- player, instead of one email per turn.
    digest         boolean NOT NULL DEFAULT false,
    digest_hour    smallint NOT NULL DEFAULT 8 CHECK (digest_hour BETWEEN 0 AND 23),
    -- Escalating reminders: hours after "your turn" at which to remind the
    -- player again while they still have not acted, ascending.
    reminder_hours integer[] NOT NULL DEFAULT '{}'
                   CHECK (cardinality(reminder_hours) <= 5),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    CHECK ((quiet_start IS NULL) = (quiet_end IS NULL)),
    CHECK (quiet_start IS NULL OR quiet_start <> quiet_end)
);

-- The first moment at or after "at" outside the quiet window of a player
-- in time zone tz; "at" itself when there is no window.
CREATE FUNCTION pbem_after_quiet_hours(at timestamptz, tz text,
                                       quiet_start smallint, quiet_end smallint)
RETURNS timestamptz LANGUAGE sql STABLE AS $$
    SELECT CASE
        WHEN quiet_start IS NULL THEN at
        WHEN (quiet_start < quiet_end
              AND local_minute >= quiet_start AND local_minute < quiet_end)
          OR (quiet_start > quiet_end
              AND (local_minute >= quiet_start OR local_minute < quiet_end))
        THEN ((date_trunc('day', local_time)
               + make_interval(mins => quiet_end)
               + CASE WHEN local_minute >= quiet_end THEN interval '1 day'
                      ELSE interval '0' END) AT TIME ZONE tz)
        ELSE at
    END
    FROM (SELECT at AT TIME ZONE tz AS local_time,
                 extract(hour FROM at AT TIME ZONE tz)::int * 60
                 + extract(minute FROM at AT TIME ZONE tz)::int AS local_minute) l
$$;

-- The next digest time after "at": today's or tomorrow's local hour.
CREATE FUNCTION pbem_next_digest(at timestamptz, tz text, hour smallint)
RETURNS timestamptz LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN today > at THEN today ELSE today + interval '1 day' END
    FROM (SELECT (date_trunc('day', at AT TIME ZONE tz)
                  + make_interval(hours => hour)) AT TIME ZONE tz AS today) t
$$;

-- 'cancelled': a reminder, nudge or digest entry for a turn the player has
-- taken meanwhile, or of a match that ended: nothing to say any more.
-- digest marks email rows that wait for the player's daily digest.
ALTER TABLE outbox DROP CONSTRAINT outbox_status_check;
ALTER TABLE outbox
    ADD CONSTRAINT outbox_status_check
        CHECK (status IN ('pending', 'sent', 'dead', 'cancelled')),
    ADD COLUMN digest boolean NOT NULL DEFAULT false;

-- Whether a notification about event seq of a match, for a player, has
-- nothing left to say: the match is no longer active, or the player has
-- acted since (an event of their seat after seq).
-- ($1 match, $2 seq, $3 player: positional, as parameter names would be
-- shadowed by the columns of the same names.)
CREATE FUNCTION pbem_outbox_pointless(bigint, bigint, bigint)
RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM matches m
                    WHERE m.match_id = $1 AND m.status <> 'active')
        OR EXISTS (SELECT 1 FROM events e JOIN seats s
                     ON s.match_id = e.match_id AND s.seat = e.seat
                    WHERE e.match_id = $1 AND e.seq > $2 AND s.player_id = $3)
$$;

-- A seated player asking the one being waited for to move; rate-limited
-- per match and nudged seat.
CREATE TABLE nudges (
    match_id   bigint NOT NULL,
    nudge_id   bigint GENERATED ALWAYS AS IDENTITY,
    seq        bigint NOT NULL,
    seat       integer NOT NULL,
    by_player  bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, nudge_id)
);
CREATE INDEX nudges_recent ON nudges (match_id, seat, created_at);
