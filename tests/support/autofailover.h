/* autofailover.h: PostgreSQL with automatic failover, as a deployment runs
 * it, made by the test on this machine's loopback: pg_auto_failover's
 * monitor and two data nodes (a primary and its synchronous standby), each
 * a cluster of its own with its pg_autoctl keeper, on ports of 127.0.0.1,
 * everything in one folder under /tmp (pg_autoctl's own configuration
 * too). As root the keepers and PostgreSQL run as the 'postgres' user.
 *
 * Nobody promotes anything by hand: the monitor decides. Its health
 * checks are made faster than the defaults (a node is unhealthy after
 * about 3 s, a primary that does not answer is demoted after 5 s) so a
 * failover takes seconds, not a minute. Every helper fails the running
 * Criterion test when pg_auto_failover does not do its part. */
#ifndef TESTS_SUPPORT_AUTOFAILOVER_H
#define TESTS_SUPPORT_AUTOFAILOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct autofailover_node {
    char pgdata[96];
    char host[16]; /* the address it listens on */
    int port;
    pid_t keeper;   /* pg_autoctl run (create … --run); 0 while stopped */
    char netns[16]; /* its network namespace, or "" (the machine's) */
    char link[16];  /* the machine's end of its cable to the bridge */
} autofailover_node;

typedef struct autofailover {
    char dir[64];
    char bindir[256]; /* pg_ctl, postgres: on the keepers' PATH */
    uid_t uid;        /* who runs it all */
    gid_t gid;
    char bridge[16];  /* the switch between the nodes and this machine, or
                         "" on loopback */
    char gateway[16]; /* this machine on the bridge: where the nodes
                         reach the monitor (127.0.0.1 on loopback) */
    char database[64];
    autofailover_node monitor;
    autofailover_node nodes[2];
} autofailover;

/* The faults a primary meets. */
typedef enum autofailover_fault {
    /* SIGKILL to the primary's postmaster: its keeper starts it again, or
     * the monitor promotes the standby, whichever comes first. */
    AUTOFAILOVER_KILL_POSTGRES,
    /* The keeper stopped (SIGTERM: it stops its PostgreSQL too), as when
     * the machine is shut down; started again once the standby leads. */
    AUTOFAILOVER_STOP_KEEPER,
    /* The keeper and PostgreSQL frozen (SIGSTOP), as a hung machine:
     * connections are accepted and never answered. Thawed once the
     * standby leads. */
    AUTOFAILOVER_FREEZE,
    /* The machine cut off the network (its cable to the bridge down): it
     * runs on, unreachable, and reaches nobody, the monitor included.
     * Plugged in again once the standby leads. Needs own_networks. */
    AUTOFAILOVER_CUT,
} autofailover_fault;

/* Makes the monitor and both nodes (database created on the primary),
 * and waits until node 0 is primary and node 1 its streaming secondary.
 * own_networks: each data node in a network namespace of its own, joined
 * to this machine (monitor, pbemd, the test) by a veth cable to a bridge
 * on 10.x.y.0/24, as separate machines are (needs root and ip(8));
 * otherwise everything on 127.0.0.1. */
void autofailover_create(autofailover *a, const char *database,
                         bool own_networks);

/* The libpq URL pbemd uses: both nodes, read-write only (what
 * `pg_autoctl show uri --formation default` prints), as user postgres. */
void autofailover_url(const autofailover *a, const char *database, char *url,
                      size_t size);

/* Waits until one node is primary and the other its secondary, both as
 * the monitor wants them, at most limit_ms; that node, or -1 with what
 * the monitor said of each node in states. (Under load the monitor may
 * miss health checks and fail over by itself: until the old primary
 * rejoins, no node is settled as primary.) */
int autofailover_wait_leader(const autofailover *a, long limit_ms, char *states,
                             size_t size);

/* Waits until node is primary (reported primary or wait_primary, which
 * takes writes) and the other is not, at most limit_ms; the milliseconds
 * it took, or -1. */
long autofailover_wait_primary(const autofailover *a, int node, long limit_ms);

/* Waits until node is a streaming secondary again (after a failover it
 * rejoins by itself: pg_rewind or a new base backup), at most limit_ms;
 * the milliseconds it took, or -1. Nudges the primary's checkpoints so a
 * base backup does not wait for a spread one. */
long autofailover_wait_secondary(const autofailover *a, int node,
                                 long limit_ms);

/* Waits until one node is primary and the other its streaming secondary,
 * both as the monitor wants them (the state before any fault), and the
 * monitor has heard from both and checked both healthy since the call, at
 * most limit_ms; the milliseconds it took, or -1. */
long autofailover_wait_settled(const autofailover *a, long limit_ms);

/* Inflicts fault on node. */
void autofailover_inflict(autofailover *a, int node, autofailover_fault fault);

/* Undoes what must be undone after a fault once the other node leads: a
 * stopped keeper is started again, a frozen node thawed, a cut one
 * plugged in again. */
void autofailover_recover(autofailover *a, int node, autofailover_fault fault);

/* The fault's name, for the figures. */
const char *autofailover_fault_name(autofailover_fault fault);

/* Stops everything (thawing what is frozen), removes the networks and
 * the folder, but for PBEM_AUTOFAILOVER_KEEP set: then the folder stays,
 * with the keepers' logs (monitor.log, node1.log, node2.log) and both
 * nodes' PostgreSQL log (pglog/postgresql.log), for a failure's evidence.
 * Safe on one never created. */
void autofailover_remove(autofailover *a);

#endif
