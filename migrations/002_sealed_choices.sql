-- 002_sealed_choices.sql: simultaneous secret decisions.
--
-- One row per seat that has committed to a decision. The public log holds
-- only the commitment until every seat has committed. A server-sealed
-- choice (the service drew the nonce) is kept here encrypted with the
-- service key, which is not in the database, and dropped once revealed.
CREATE TABLE sealed_choices (
    match_id    bigint NOT NULL REFERENCES matches ON DELETE CASCADE,
    decision    text NOT NULL CHECK (length(decision) BETWEEN 1 AND 63),
    seat        integer NOT NULL CHECK (seat >= 0),
    mode        text NOT NULL CHECK (mode IN ('server', 'client')),
    commitment  bytea NOT NULL CHECK (length(commitment) = 32),
    sealed      bytea,
    revealed    boolean NOT NULL DEFAULT false,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, decision, seat)
);
