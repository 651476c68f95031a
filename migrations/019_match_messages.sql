-- 019_match_messages.sql: talk at the table (service/play/messages.h).
-- A seated player writes to everyone at the table or privately to one
-- seat; a player may mute another; a seat's messages not yet mailed to it
-- ride along in the next mail it gets.
--
-- Messages are not events: they do not join the hash chain, which holds
-- what changes the game and is public to anyone who verifies it. They are
-- kept beside the log, numbered per match, each with the head of the log
-- it was written at, so they can be shown in their place among the
-- events. A private message is read only by its writer and its addressee.
--
-- Citus readiness: match_messages and match_message_heads lead with
-- match_id (colocated with the match tables); player_mutes is a small
-- per-player table.

-- The last message id given out in a match. Taking the next id updates
-- this row, which stays locked until the transaction ends, so ids become
-- visible in increasing order (a reader after id 6 never misses a 6 still
-- to come), as player_stream_heads does for streams.
CREATE TABLE match_message_heads (
    match_id bigint PRIMARY KEY REFERENCES matches ON DELETE CASCADE,
    last_id  bigint NOT NULL CHECK (last_id >= 1)
);

CREATE TABLE match_messages (
    match_id    bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
    message_id  bigint NOT NULL CHECK (message_id >= 1),
    seq         bigint NOT NULL CHECK (seq >= 0),
    from_seat   integer NOT NULL CHECK (from_seat >= 0),
    from_player bigint NOT NULL,
    -- NULL: to everyone at the table.
    to_seat     integer CHECK (to_seat >= 0),
    text        text NOT NULL CHECK (length(text) BETWEEN 1 AND 1000),
    -- The request as the events keep theirs (signature, input, body), or
    -- what the mail door records of a mail.
    request     jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, message_id)
);
-- The rate limit counts a seat's recent messages.
CREATE INDEX match_messages_by_seat
    ON match_messages (match_id, from_seat, created_at);

-- player_id reads nothing muted_player_id writes, in any match.
CREATE TABLE player_mutes (
    player_id       bigint NOT NULL,
    muted_player_id bigint NOT NULL CHECK (muted_player_id <> player_id),
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (player_id, muted_player_id)
);

-- The last message of a match mailed to a player: the next mail the
-- service sends them about the match carries those after it.
CREATE TABLE match_message_mailed (
    match_id bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
    player_id bigint NOT NULL,
    through   bigint NOT NULL CHECK (through >= 0),
    PRIMARY KEY (match_id, player_id)
);
