-- 018_lobby.sql: finding opponents (docs/lobby.md): which forming matches
-- anyone may join, the players' Glicko-2 ratings per game with the change
-- each rated match made, and quick-match seeks.
--
-- Citus readiness: match_lobby and rating_changes belong to a match and
-- keep match_id first; ratings and seeks belong to a player, small
-- reference tables like players.

-- How a match meets strangers. No row (matches made before this
-- migration, or imported): invite-only and unrated.
CREATE TABLE match_lobby (
    match_id        bigint PRIMARY KEY REFERENCES matches ON DELETE CASCADE,
    game            text NOT NULL,
    open            boolean NOT NULL,
    rated           boolean NOT NULL,
    min_reliability real CHECK (min_reliability BETWEEN 0 AND 1),
    -- Cleared when the last seat is taken: the listing reads only the
    -- few rows still forming, however many matches were ever made.
    forming         boolean NOT NULL DEFAULT true,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX match_lobby_listing ON match_lobby (game, created_at)
    WHERE open AND forming;

-- A player's Glicko-2 rating in a game (rating and deviation on the
-- Glicko scale, 1500 and 350 for someone new), and how many rated
-- matches of it they finished and won (first place, shared or not).
CREATE TABLE ratings (
    game        text NOT NULL,
    player_id   bigint NOT NULL REFERENCES players,
    rating      double precision NOT NULL,
    deviation   double precision NOT NULL CHECK (deviation > 0),
    volatility  double precision NOT NULL CHECK (volatility > 0),
    matches     integer NOT NULL CHECK (matches >= 0),
    wins        integer NOT NULL CHECK (wins >= 0),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game, player_id)
);
CREATE INDEX ratings_leaderboard ON ratings (game, rating DESC, player_id);
CREATE INDEX ratings_player ON ratings (player_id);

-- What each rated match did to each of its players' ratings: the history
-- on a player's page, and the guard that rates a match once.
CREATE TABLE rating_changes (
    match_id          bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
    player_id         bigint NOT NULL,
    game              text NOT NULL,
    place             integer NOT NULL CHECK (place >= 1),
    rating_before     double precision NOT NULL,
    rating_after      double precision NOT NULL,
    deviation_before  double precision NOT NULL,
    deviation_after   double precision NOT NULL,
    volatility_before double precision NOT NULL,
    volatility_after  double precision NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, player_id)
);
CREATE INDEX rating_changes_player ON rating_changes (player_id, created_at);

-- Quick match: a player waiting for a match of a game with so many seats
-- and a turn deadline (turn_hours), at their rating when they asked.
CREATE TABLE seeks (
    seek_id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id   bigint NOT NULL REFERENCES players,
    game        text NOT NULL,
    seats       integer NOT NULL CHECK (seats BETWEEN 1 AND 16),
    turn_hours  integer NOT NULL CHECK (turn_hours BETWEEN 1 AND 8760),
    rating      double precision NOT NULL,
    status      text NOT NULL DEFAULT 'waiting'
                CHECK (status IN ('waiting', 'matched', 'withdrawn')),
    match_id    bigint,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL
);
-- One waiting seek per player and kind of match: asking twice is asking
-- once, and nobody is seated twice in one match.
CREATE UNIQUE INDEX seeks_one_waiting
    ON seeks (player_id, game, seats, turn_hours) WHERE status = 'waiting';
CREATE INDEX seeks_waiting ON seeks (game, seats, turn_hours, created_at)
    WHERE status = 'waiting';
