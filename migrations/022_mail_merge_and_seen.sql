-- 022_mail_merge_and_seen.sql: fewer mails for a person playing by mail,
-- none for one playing on the web page right now.
--
-- An answer to a mailed move that leaves the sender waiting for others is
-- held a short while (PBEM_MAIL_ANSWER_HOLD_SECONDS) for the match's next
-- mail to the same address: when that seat's "your turn" (or the match's
-- end) comes first, the two go as one mail, and the answer is marked
-- merged into it. Unmerged, it goes alone when its hold runs out.
ALTER TABLE mail_answers
    -- The match whose next mail to to_address the held answer joins;
    -- NULL for every other row.
    ADD COLUMN match_id    bigint,
    -- The notification ("ntf_<match>_<outbox>") it went out inside.
    ADD COLUMN merged_into text CHECK (length(merged_into) <= 64);
CREATE INDEX mail_answers_held_for_match ON mail_answers (match_id, to_address)
    WHERE match_id IS NOT NULL AND status = 'pending';
-- Whether a mailed move has been answered yet (store/outbox.h: a turn
-- mail waits a moment for an answer still being written).
CREATE INDEX mail_answers_to_address ON mail_answers (lower(to_address),
                                                      created_at);

-- When a player was last seen on the web page: a request signed by one
-- of their own keys (the page's, or the command line's; not a bot's acting
-- under a delegation), or an event stream they opened. One row per
-- player, overwritten at most about once a minute per process.
CREATE TABLE players_seen (
    player_id bigint PRIMARY KEY,
    seen_at   timestamptz NOT NULL
);

-- Whether a "your turn" email is spared while the player is seen on the
-- page (within PBEM_MAIL_SEEN_MINUTES): the turn reaches the page; the
-- reminders stay.
ALTER TABLE notification_settings
    ADD COLUMN skip_when_seen boolean NOT NULL DEFAULT true;
