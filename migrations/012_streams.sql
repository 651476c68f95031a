-- 012_streams.sql: event streams (service/streams/). A match stream reads
-- the events table itself; a player stream reads player_stream, the
-- notifications a player would get by webhook, numbered per player.
--
-- Why a per-player counter rather than a sequence: a stream resumes after
-- the last id its client saw (Last-Event-ID), so ids must become visible
-- in increasing order. Taking the next id updates the player's row of
-- player_stream_heads, which stays locked until the transaction ends, so a
-- second transaction for the same player waits and takes the next id only
-- after the first committed (or reuses it after a rollback): a reader can
-- never see id 7 while id 6 is still to come.
--
-- Citus readiness: player_stream grows with play but is read per player,
-- so player_id (not match_id) leads its keys: it would be distributed by
-- player, not colocated with the match tables; it has no foreign key. The
-- NOTIFY triggers carry only ids. Each pbemd prunes rows older than
-- PBEM_STREAM_KEEP_HOURS (a week by default).

-- A player who has opened a stream once, and the last id their stream
-- used. Only these players get player_stream rows (and count as reachable
-- when the outbox decides whom to build payloads for): a first stream
-- starts with the matches waiting for the player, built then.
CREATE TABLE player_stream_heads (
    player_id bigint PRIMARY KEY,
    last_id   bigint NOT NULL DEFAULT 0 CHECK (last_id >= 0)
);

-- One notification for one player: the webhook payload (type
-- match.your_turn, match.over, match.nudge, …) as the outbox queued it.
CREATE TABLE player_stream (
    player_id  bigint NOT NULL,
    stream_id  bigint NOT NULL CHECK (stream_id >= 1),
    match_id   bigint NOT NULL,
    seq        bigint NOT NULL,
    reason     text NOT NULL,
    payload    jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, stream_id),
    UNIQUE (player_id, match_id, seq, reason)
);
-- Rows older than PBEM_STREAM_KEEP_HOURS are pruned (streams_hub.c).
CREATE INDEX player_stream_created ON player_stream (created_at);

-- The outbox's queueing statement (service/notify/notify_outbox.c) takes
-- the next id and inserts the row in the append's transaction; each row
-- wakes that player's streams on every pbemd process.
CREATE FUNCTION player_stream_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('pbem_stream', 'p' || NEW.player_id);
    RETURN NULL;
END
$$;
CREATE TRIGGER player_stream_wake AFTER INSERT ON player_stream
    FOR EACH ROW EXECUTE FUNCTION player_stream_wake();

-- Every appended event wakes the streams of its match, on every pbemd
-- process (each LISTENs once). NOTIFY is delivered on commit, and folds
-- identical payloads within a transaction: one wake-up per change.
CREATE FUNCTION stream_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('pbem_stream', 'm' || NEW.match_id);
    RETURN NULL;
END
$$;
CREATE TRIGGER stream_wake AFTER INSERT ON events
    FOR EACH ROW EXECUTE FUNCTION stream_wake();
