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

#endif
