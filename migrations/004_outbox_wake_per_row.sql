-- 004_outbox_wake_per_row.sql: wake the outbox worker only when a row
-- really was queued. The statement-level trigger of 003 fired for every
-- INSERT … SELECT, even one that queued nothing (a player without email or
-- webhooks), waking the worker on every move. NOTIFY folds identical
-- notifications within a transaction, so one per row costs nothing more.
DROP TRIGGER outbox_wake ON outbox;
CREATE TRIGGER outbox_wake AFTER INSERT ON outbox
    FOR EACH ROW EXECUTE FUNCTION outbox_wake();
