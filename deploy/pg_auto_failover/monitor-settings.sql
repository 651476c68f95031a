-- monitor-settings.sql: how fast the monitor decides, run on the monitor
-- (psql -d pg_auto_failover -f monitor-settings.sql). These are the values
-- the tests use (tests/support/autofailover.c): a primary that stops
-- answering is replaced in about 10-12 s (deploy/cluster.md has the
-- figures). pg_auto_failover's defaults (5 s checks, unhealthy after 20 s,
-- demoted after 30 s) take about 30-40 s; faster still means a short
-- network hiccup can cost a failover.
ALTER SYSTEM SET pgautofailover.health_check_period = 1000;
ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000;
ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500;
ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 3000;
ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 5000;
SELECT pg_reload_conf();
