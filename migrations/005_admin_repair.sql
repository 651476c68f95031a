-- 005_admin_repair.sql: matches an admin aborted, and which event each
-- signed request became.
--
-- An aborted match (an `aborted` event in its log) accepts nothing more.
ALTER TABLE matches DROP CONSTRAINT matches_status_check;
ALTER TABLE matches ADD CONSTRAINT matches_status_check
    CHECK (status IN ('open', 'active', 'finished', 'aborted'));

-- The match and the head a request left behind, so a retry of a request
-- whose event an admin has since rewound is told so instead of receiving
-- the first answer as if it still stood. NULL for requests that made no
-- event (webhook registration) and for rows older than this migration.
ALTER TABLE request_nonces
    ADD COLUMN match_id bigint,
    ADD COLUMN seq      bigint;
