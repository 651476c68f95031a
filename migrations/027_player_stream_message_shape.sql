-- 027_player_stream_message_shape.sql: the match.message items that
-- players' streams kept wrapped twice.
--
-- Why: a player stream sends each row as {"type", "timestamp", "data":
-- payload} (service/store/player_stream.c). From 025 on, a message's row
-- kept the whole stream item, already {"type", "timestamp", "data"}, so
-- the stream sent the message at data.data.message, not at data.message
-- as openapi.yaml (MessageStreamItem) and docs/bots.md give it. pbemd now
-- keeps the item's data; the rows kept meanwhile are unwrapped here, so a
-- client that resumes reads them in the documented shape too.
UPDATE player_stream
   SET payload = payload -> 'data'
 WHERE payload ->> 'type' = 'match.message'
   AND payload ? 'timestamp'
   AND jsonb_typeof(payload -> 'data') = 'object'
   AND payload -> 'data' ? 'message';
