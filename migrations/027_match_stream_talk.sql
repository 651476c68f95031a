-- 027_match_stream_talk.sql: a message at a match's table wakes the
-- streams of that match (service/streams/stream_feed.h), as an appended
-- event does (012_streams.sql), on every pbemd process.
--
-- Why: a match stream signed by a seat's player (or a bot with a grant of
-- view on the match) carries the messages that seat may read, in their
-- place among the events. Without this wake-up such a message would wait
-- for the next event or heartbeat. The payload is the match's, like the
-- events' own: an unsigned stream woken by it reads nothing new (its
-- events come from the shared cache after one read per process).
CREATE FUNCTION match_message_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('pbem_stream', 'm' || NEW.match_id);
    RETURN NULL;
END
$$;
CREATE TRIGGER match_message_wake AFTER INSERT ON match_messages
    FOR EACH ROW EXECUTE FUNCTION match_message_wake();
