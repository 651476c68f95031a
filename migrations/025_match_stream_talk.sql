-- 025_match_stream_talk.sql: a message at a match's table wakes the
-- streams of that match (service/streams/stream_feed.h), as an appended
-- event does, on every pbemd process.
--
-- Why: a match stream signed by a seat's player (or a bot with a grant of
-- view on the match) carries the messages that seat may read, in their
-- place among the events. Without this wake-up such a message would wait
-- for the next event or heartbeat. The events' own function sends it
-- (012_streams.sql: 'm' || match_id, which match_messages has too), so an
-- unsigned stream woken by a message finds nothing new: its events come
-- from the shared cache after one read per process.
CREATE TRIGGER match_message_wake AFTER INSERT ON match_messages
    FOR EACH ROW EXECUTE FUNCTION stream_wake();
