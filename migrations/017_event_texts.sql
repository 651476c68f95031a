-- 017_event_texts.sql: a match's events told as sentences, with their
-- outcomes (service/play/event_log.h): "You drew mask and blue5." to the
-- drawer, "Bob drew 2 cards." to everyone else.
--
-- Derived from the log and nothing else: every row can be told again from
-- the events (and is, when missing), so dropping the table loses nothing.
-- They are told once, when the event is appended (the append has the
-- state before and after it), so a view, a mail or a stream reads
-- sentences instead of replaying the match.
--
-- viewer -1 is the public sentence; a seat has a row of its own only
-- where its sentence differs from the public one. A reader for a seat
-- takes its own row, else the public one; nobody else's.
CREATE TABLE event_texts (
    match_id bigint NOT NULL,
    seq      bigint NOT NULL,
    viewer   integer NOT NULL CHECK (viewer >= -1),
    seat     integer,
    text     text NOT NULL,
    PRIMARY KEY (match_id, seq, viewer),
    FOREIGN KEY (match_id, seq) REFERENCES events ON DELETE CASCADE
);
