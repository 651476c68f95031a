/* pgcluster.h: a PostgreSQL cluster of a test's own, for tests that stop
 * or crash the database (the shared test server must keep serving the
 * suites running beside them). initdb in a fresh folder under /tmp, a unix
 * socket in that folder and no TCP port, the postmaster a child of the
 * test that dies with it, stopped with pg_ctl. As root, everything runs as
 * the unprivileged 'postgres' user (PostgreSQL refuses root). Every helper
 * fails the running Criterion test when PostgreSQL does not do its part. */
#ifndef TESTS_SUPPORT_PGCLUSTER_H
#define TESTS_SUPPORT_PGCLUSTER_H

#include <stddef.h>
#include <sys/types.h>

typedef struct pgcluster {
    char dir[64];     /* the folder: data/, the socket, server.log */
    char bindir[256]; /* initdb, postgres, pg_ctl */
    pid_t postmaster; /* 0 while stopped */
    uid_t uid;        /* who runs PostgreSQL */
    gid_t gid;
} pgcluster;

/* Makes the folder and the cluster (initdb), starts it and creates
 * database (owned by user 'pbem', trusted on the socket). */
void pgcluster_create(pgcluster *c, const char *database);

/* Starts the postmaster and waits (60 s at most, crash recovery included)
 * until it accepts connections. */
void pgcluster_start(pgcluster *c);

/* pg_ctl stop -m mode ("fast", "immediate": as a crash, no checkpoint),
 * then reaps the postmaster. */
void pgcluster_stop(pgcluster *c, const char *mode);

/* The libpq URL of database on the cluster. */
void pgcluster_url(const pgcluster *c, const char *database, char *url,
                   size_t size);

/* Stops the cluster if it runs (immediate: nothing in it is kept) and
 * removes its folder. Safe on a cluster never created. */
void pgcluster_remove(pgcluster *c);

/* Replication, for the failover suite: PostgreSQL's own streaming
 * replication between two such clusters, on their unix sockets (initdb's
 * pg_hba.conf trusts local replication connections, and 'pbem' is the
 * superuser). */

/* Makes standby a copy of the running primary (pg_basebackup -R, so it
 * follows it, as application_name name) and starts it: it accepts
 * read-only connections and streams the primary's WAL. Waits until the
 * primary sees it streaming. */
void pgcluster_create_standby(pgcluster *standby, const pgcluster *primary,
                              const char *name);

/* The way back for a primary that failed (and was fenced): stopped if it
 * still runs, its data thrown away, made again as a standby of primary in
 * the same folder (the same socket, so a client's list of hosts still
 * names it). A failed primary never rejoins as it was: it may hold
 * commits no standby has. */
void pgcluster_rebuild_as_standby(pgcluster *old, const pgcluster *primary,
                                  const char *name);

/* Makes every commit on primary wait until the standby called name has
 * flushed it (synchronous_standby_names, synchronous_commit=on): a commit
 * acknowledged by the primary survives its loss. Set with ALTER SYSTEM on
 * the primary only, after the standby was copied, so a promoted standby
 * does not wait for a standby of its own. Waits until the standby is
 * synchronous. */
void pgcluster_make_synchronous(pgcluster *primary, const char *name);

/* pg_ctl promote: the standby stops following and becomes a primary.
 * Waits until it accepts writes. */
void pgcluster_promote(pgcluster *standby);

/* Sends sig to the postmaster and every process it started: SIGSTOP
 * freezes the cluster as a hung machine does (connections are accepted by
 * the kernel and never answered), SIGKILL fences it off for good. */
void pgcluster_signal(const pgcluster *c, int sig);

/* One libpq URL for database on every cluster of clusters (n of them),
 * connecting only to the one that accepts writes
 * (target_session_attrs=read-write): how a client follows a failover. */
void pgcluster_multi_url(const pgcluster *const *clusters, int n,
                         const char *database, char *url, size_t size);

#endif
