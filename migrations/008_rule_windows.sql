-- 008_rule_windows.sql: deadline rows for the windows the rules bound in
-- time (rules.h window), such as the "Can I have it?" window of Another
-- Man's Treasure: kind 'window', awaited "window:<window id>@<seq>". Such
-- a row exists in every match of such an engine, with or without the
-- match's deadline options; it has no reminder, grace or time bank
-- (due_at = grace_end_at = fire_at) and, when it fires, the seat passes.
ALTER TABLE deadlines DROP CONSTRAINT deadlines_kind_check;
ALTER TABLE deadlines
    ADD CONSTRAINT deadlines_kind_check
        CHECK (kind IN ('turn', 'commit', 'reveal', 'window'));
