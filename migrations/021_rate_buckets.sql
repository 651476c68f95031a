-- 021_rate_buckets.sql: rate-limit budgets shared by every pbemd on the
-- database (PBEM_RATE_SHARED=1, http/rate_policy.h), so that behind a
-- proxy spreading requests over three processes a client's budget is the
-- figure configured, not three times it.
--
-- A bucket is one number, as in a process (http/rate_limit.c): the
-- instant it will be full again, in microseconds on the database's clock
-- (one clock for every process). A request moves it later by its cost,
-- and is refused when that would put it more than the window ahead.
--
-- UNLOGGED: a bucket is worth nothing after a crash or a failover (an
-- empty table is every client with a full budget, the state a restart of
-- a single pbemd gives too), and not writing WAL for it keeps a request's
-- charge to one row update in shared buffers. Rows of buckets that are
-- full again say nothing an absent row does not; rate_policy prunes them.
CREATE UNLOGGED TABLE rate_buckets (
    bucket     text PRIMARY KEY, -- "anonymous 600/60 203.0.113.7"
    full_at_us bigint NOT NULL
);

-- Charges cost_us to bucket unless that would owe more than capacity_us:
-- whether it was allowed, and how long until the bucket is full again.
-- One statement per request: the row lock orders requests of one client
-- from every process.
CREATE FUNCTION rate_bucket_take(p_bucket text, p_cost_us bigint,
                                 p_capacity_us bigint,
                                 OUT allowed boolean, OUT owed_us bigint)
LANGUAGE plpgsql AS $$
DECLARE
    now_us  bigint := (extract(epoch FROM clock_timestamp()) * 1000000)::bigint;
    full_at bigint;
BEGIN
    INSERT INTO rate_buckets AS b (bucket, full_at_us)
    VALUES (p_bucket, now_us + least(p_cost_us, p_capacity_us))
    ON CONFLICT (bucket) DO UPDATE
        SET full_at_us = greatest(b.full_at_us, now_us) + p_cost_us
        WHERE greatest(b.full_at_us, now_us) + p_cost_us - now_us
              <= p_capacity_us
    RETURNING b.full_at_us INTO full_at;
    allowed := FOUND;
    IF NOT allowed THEN
        SELECT b.full_at_us INTO full_at
          FROM rate_buckets b WHERE b.bucket = p_bucket;
    END IF;
    owed_us := greatest(coalesce(full_at, now_us) - now_us, 0);
END
$$;
