-- 026_mail_messages_sender_case.sql: the index that the hourly limits on
-- mail answers can use.
--
-- Why: those limits count a sender's messages of the last hour with the
-- address compared case aside (lower(sender), service/store/
-- mail_messages.c), which the index on sender itself (009_mail.sql) cannot
-- serve: every mail that came in read the whole table two or three times.
-- mail_messages keeps a row per message for good, so that cost grew with
-- every mail the service ever handled (65 ms a query at 200,000 rows on
-- the development machine). Nothing else looks a message up by sender, so
-- the old index goes: it only cost every insert.
CREATE INDEX mail_messages_sender_case ON mail_messages (lower(sender), received_at);
DROP INDEX mail_messages_sender;
