/* autofailover.c */
#include "autofailover.h"

#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ports.h"

#define MONITOR_DB "pg_auto_failover"
/* How long a node may take to be made (initdb, a base backup). */
#define CREATE_LIMIT_MS 120000

extern char **environ;

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void find_bindir(autofailover *a)
{
    a->bindir[0] = '\0';
    FILE *p = popen("pg_config --bindir 2>/dev/null", "r");
    if (p != NULL) {
        if (fgets(a->bindir, sizeof a->bindir, p) == NULL)
            a->bindir[0] = '\0';
        a->bindir[strcspn(a->bindir, "\n")] = '\0';
        pclose(p);
    }
    char pg_ctl[300];
    snprintf(pg_ctl, sizeof pg_ctl, "%s/pg_ctl", a->bindir);
    cr_assert(a->bindir[0] != '\0' && access(pg_ctl, X_OK) == 0,
              "PostgreSQL's pg_ctl not found (pg_config --bindir)");
    cr_assert(access("/usr/bin/pg_autoctl", X_OK) == 0,
              "pg_autoctl not found: install pg-auto-failover-cli and "
              "postgresql-15-auto-failover (make deps)");
}

/* Starts pg_autoctl with args (NULL-terminated, after the program name)
 * as the owner, in a process group of its own (a freeze stops the keeper
 * and its PostgreSQL together), its output appended to log. */
static pid_t spawn(const autofailover *a, const char *netns,
                   const char *const *args, const char *log)
{
    /* The node's network namespace, opened before fork. */
    int net = -1;
    if (netns != NULL && netns[0] != '\0') {
        char path[64];
        snprintf(path, sizeof path, "/run/netns/%s", netns);
        net = open(path, O_RDONLY | O_CLOEXEC);
        cr_assert_geq(net, 0, "%s: %s", path, strerror(errno));
    }
    /* The environment is made before fork (the test has threads). */
    static char path[400], home[100], config[120], data[120], runtime[120];
    snprintf(path, sizeof path, "PATH=%s:/usr/bin:/bin", a->bindir);
    snprintf(home, sizeof home, "HOME=%s", a->dir);
    snprintf(config, sizeof config, "XDG_CONFIG_HOME=%s/config", a->dir);
    snprintf(data, sizeof data, "XDG_DATA_HOME=%s/data", a->dir);
    snprintf(runtime, sizeof runtime, "XDG_RUNTIME_DIR=%s/run", a->dir);
    char *env[] = {path, home, config, data, runtime, "LANG=C.UTF-8", NULL};
    const char *argv[32] = {"pg_autoctl"};
    int n = 1;
    for (; args[n - 1] != NULL && n < 31; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    pid_t parent = getpid();
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
            dup2(fd, STDERR_FILENO) < 0)
            _exit(126);
        if (setsid() < 0)
            _exit(126);
        if (net >= 0 && setns(net, CLONE_NEWNET) != 0)
            _exit(126);
        if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(a->gid) != 0 ||
                               setuid(a->uid) != 0))
            _exit(126);
        /* After setuid, which clears it: the keeper dies with the test. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(0);
        execve("/usr/bin/pg_autoctl", (char *const *)argv, env);
        _exit(127);
    }
    if (net >= 0)
        close(net);
    return pid;
}

static PGconn *connect_to(const autofailover_node *n, const char *database)
{
    char info[200];
    snprintf(info, sizeof info,
             "host=%s port=%d dbname=%s user=postgres "
             "connect_timeout=2 sslmode=disable",
             n->host, n->port, database);
    return PQconnectdb(info);
}

/* Runs sql on the monitor; false when it cannot be reached. */
static bool monitor_exec(const autofailover *a, const char *sql)
{
    PGconn *c = connect_to(&a->monitor, MONITOR_DB);
    bool ok = PQstatus(c) == CONNECTION_OK;
    if (ok) {
        PGresult *r = PQexec(c, sql);
        ok = PQresultStatus(r) == PGRES_COMMAND_OK ||
             PQresultStatus(r) == PGRES_TUPLES_OK;
        PQclear(r);
    }
    PQfinish(c);
    return ok;
}

/* The monitor's reported and goal states of node ("" when unknown). */
static void node_state(const autofailover *a, int node, char *reported,
                       char *goal, size_t size)
{
    reported[0] = goal[0] = '\0';
    PGconn *c = connect_to(&a->monitor, MONITOR_DB);
    if (PQstatus(c) == CONNECTION_OK) {
        char port[16];
        snprintf(port, sizeof port, "%d", a->nodes[node].port);
        const char *params[] = {port};
        PGresult *r =
            PQexecParams(c,
                         "SELECT reportedstate::text, goalstate::text FROM "
                         "pgautofailover.node WHERE nodeport = $1::int",
                         1, NULL, params, NULL, NULL, 0);
        if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
            snprintf(reported, size, "%s", PQgetvalue(r, 0, 0));
            snprintf(goal, size, "%s", PQgetvalue(r, 0, 1));
        }
        PQclear(r);
    }
    PQfinish(c);
}

static bool leads(const char *reported, const char *goal)
{
    return strcmp(reported, goal) == 0 &&
           (strcmp(goal, "primary") == 0 || strcmp(goal, "wait_primary") == 0 ||
            strcmp(goal, "single") == 0);
}

/* Whether node's reported and goal states are both state. */
static bool settled_as(const autofailover *a, int node, const char *state)
{
    char reported[32], goal[32];
    node_state(a, node, reported, goal, sizeof reported);
    return strcmp(reported, state) == 0 && strcmp(goal, state) == 0;
}

/* The node settled as primary with the other settled as its secondary,
 * or -1. */
static int settled_primary(const autofailover *a)
{
    for (int node = 0; node < 2; node++)
        if (settled_as(a, node, "primary") &&
            settled_as(a, 1 - node, "secondary"))
            return node;
    return -1;
}

int autofailover_wait_leader(const autofailover *a, long limit_ms, char *states,
                             size_t size)
{
    long began = now_ms();
    for (;;) {
        int node = settled_primary(a);
        if (node >= 0)
            return node;
        if (now_ms() - began >= limit_ms)
            break;
        poll(NULL, 0, 100); /* the pace of a bounded poll */
    }
    char reported[2][32], goal[2][32];
    for (int node = 0; node < 2; node++)
        node_state(a, node, reported[node], goal[node], sizeof reported[node]);
    snprintf(states, size,
             "node 1 reported %s, the monitor wants %s; node 2 reported %s, "
             "the monitor wants %s",
             reported[0][0] ? reported[0] : "(no answer)",
             goal[0][0] ? goal[0] : "(no answer)",
             reported[1][0] ? reported[1] : "(no answer)",
             goal[1][0] ? goal[1] : "(no answer)");
    return -1;
}

/* A CHECKPOINT on node, so a base backup taken from it does not wait
 * for a spread checkpoint (pg_autoctl does not ask for a fast one). */
static void checkpoint(const autofailover *a, int node)
{
    PGconn *c = connect_to(&a->nodes[node], a->database);
    if (PQstatus(c) == CONNECTION_OK)
        PQclear(PQexec(c, "CHECKPOINT"));
    PQfinish(c);
}

long autofailover_wait_primary(const autofailover *a, int node, long limit_ms)
{
    long began = now_ms();
    while (now_ms() - began < limit_ms) {
        char reported[32], goal[32], other_reported[32], other_goal[32];
        node_state(a, node, reported, goal, sizeof reported);
        node_state(a, 1 - node, other_reported, other_goal,
                   sizeof other_reported);
        if (leads(reported, goal) && !leads(other_reported, other_goal))
            return now_ms() - began;
        poll(NULL, 0, 100); /* the pace of a bounded poll */
    }
    return -1;
}

long autofailover_wait_secondary(const autofailover *a, int node, long limit_ms)
{
    long began = now_ms();
    while (now_ms() - began < limit_ms) {
        char reported[32], goal[32];
        node_state(a, node, reported, goal, sizeof reported);
        if (strcmp(reported, "secondary") == 0 &&
            strcmp(goal, "secondary") == 0)
            return now_ms() - began;
        checkpoint(a, 1 - node);
        poll(NULL, 0, 250); /* the pace of a bounded poll */
    }
    return -1;
}

/* Whether the monitor has heard from both nodes, and found both healthy,
 * since the instant since (its clock, as text): a state it has not yet
 * checked again may still be the one from before a fault (a killed
 * PostgreSQL its keeper restarted before the monitor noticed), with the
 * failover still to come. */
static bool heard_since(const autofailover *a, const char *since)
{
    PGconn *c = connect_to(&a->monitor, MONITOR_DB);
    bool heard = false;
    if (PQstatus(c) == CONNECTION_OK) {
        const char *params[] = {since};
        PGresult *r = PQexecParams(
            c,
            "SELECT count(*) = 2 FROM pgautofailover.node WHERE health = 1 "
            "AND reporttime > $1::timestamptz AND healthchecktime > "
            "$1::timestamptz",
            1, NULL, params, NULL, NULL, 0);
        heard = PQresultStatus(r) == PGRES_TUPLES_OK &&
                strcmp(PQgetvalue(r, 0, 0), "t") == 0;
        PQclear(r);
    }
    PQfinish(c);
    return heard;
}

long autofailover_wait_settled(const autofailover *a, long limit_ms)
{
    long began = now_ms();
    char since[64] = "";
    PGconn *c = connect_to(&a->monitor, MONITOR_DB);
    PGresult *r = PQexec(c, "SELECT now()::text");
    if (PQresultStatus(r) == PGRES_TUPLES_OK)
        snprintf(since, sizeof since, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    PQfinish(c);
    cr_assert(since[0] != '\0', "the monitor does not answer");
    while (now_ms() - began < limit_ms) {
        if (settled_primary(a) >= 0 && heard_since(a, since))
            return now_ms() - began;
        /* A base backup waits for no spread checkpoint. */
        checkpoint(a, 0);
        checkpoint(a, 1);
        poll(NULL, 0, 250); /* the pace of a bounded poll */
    }
    return -1;
}

static void start_keeper(autofailover *a, autofailover_node *n, const char *log)
{
    const char *const run[] = {"run", "--pgdata", n->pgdata, NULL};
    n->keeper = spawn(a, n->netns, run, log);
}

/* Runs ip(8) with the command (names and addresses of this file's own
 * making only); whether it succeeded. */
static bool ip(const char *command)
{
    char line[200];
    snprintf(line, sizeof line, "ip %s >/dev/null 2>&1", command);
    int status = system(line);
    return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void must_ip(const char *format, const char *a1, const char *a2)
{
    char command[160];
    snprintf(command, sizeof command, format, a1, a2);
    cr_assert(ip(command), "ip %s failed (own networks need root and ip(8))",
              command);
}

/* A bridge on this machine, and a namespace per data node cabled to it;
 * the monitor listens on the bridge. Named and numbered after this
 * process, so parallel runs do not meet. */
static void make_networks(autofailover *a)
{
    /* Bounded as pids are (pid_max is at most 2^22), so that the
     * compiler sees every name fit: interface names have 15 bytes. */
    unsigned pid = (unsigned)getpid() % 10000000u;
    unsigned x = 100 + (pid / 250) % 150, y = pid % 250;
    snprintf(a->bridge, sizeof a->bridge, "paf%ubr", pid);
    snprintf(a->gateway, sizeof a->gateway, "10.%u.%u.1", x, y);
    must_ip("link add %s type bridge", a->bridge, NULL);
    char address[24];
    snprintf(address, sizeof address, "%s/24", a->gateway);
    must_ip("addr add %s dev %s", address, a->bridge);
    must_ip("link set %s up", a->bridge, NULL);
    for (int i = 0; i < 2; i++) {
        autofailover_node *n = &a->nodes[i];
        char peer[16];
        unsigned node = (unsigned)i % 2u + 1u; /* 1 or 2, as above */
        snprintf(n->netns, sizeof n->netns, "paf%un%u", pid, node);
        snprintf(n->link, sizeof n->link, "paf%uh%u", pid, node);
        snprintf(peer, sizeof peer, "paf%up%u", pid, node);
        snprintf(n->host, sizeof n->host, "10.%u.%u.%u", x, y, node + 1);
        must_ip("netns add %s", n->netns, NULL);
        char pair[48];
        snprintf(pair, sizeof pair, "%s type veth peer name %s", n->link, peer);
        must_ip("link add %s", pair, NULL);
        must_ip("link set %s netns %s", peer, n->netns);
        must_ip("link set %s master %s", n->link, a->bridge);
        must_ip("link set %s up", n->link, NULL);
        snprintf(address, sizeof address, "%s/24", n->host);
        char inside[64];
        snprintf(inside, sizeof inside, "addr add %s dev %s", address, peer);
        must_ip("-n %s %s", n->netns, inside);
        snprintf(inside, sizeof inside, "link set %s up", peer);
        must_ip("-n %s %s", n->netns, inside);
        must_ip("-n %s link set lo up", n->netns, NULL);
    }
}

static void remove_networks(autofailover *a)
{
    char command[64];
    for (int i = 0; i < 2; i++) {
        autofailover_node *n = &a->nodes[i];
        if (n->netns[0] == '\0')
            continue;
        /* Its end of the cable goes with it, and the other end too. */
        snprintf(command, sizeof command, "netns del %s", n->netns);
        ip(command);
        n->netns[0] = '\0';
    }
    if (a->bridge[0] != '\0') {
        snprintf(command, sizeof command, "link del %s", a->bridge);
        ip(command);
        a->bridge[0] = '\0';
    }
}

static void make_folder(autofailover *a, const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", a->dir, name);
    cr_assert(mkdir(path, 0700) == 0, "mkdir %s: %s", path, strerror(errno));
    if (geteuid() == 0)
        cr_assert_eq(chown(path, a->uid, a->gid), 0);
}

static void create_node(autofailover *a, int i, const char *database)
{
    autofailover_node *n = &a->nodes[i];
    char pgdata[sizeof n->pgdata];
    snprintf(pgdata, sizeof pgdata, "%s/node%d", a->dir, i + 1);
    memcpy(n->pgdata, pgdata, sizeof pgdata);
    n->port = ports_free();
    char port[16], monitor[200], name[16], log[128];
    snprintf(port, sizeof port, "%d", n->port);
    snprintf(monitor, sizeof monitor,
             "postgres://autoctl_node@%s:%d/" MONITOR_DB "?sslmode=disable",
             a->gateway, a->monitor.port);
    snprintf(name, sizeof name, "node%d", i + 1);
    snprintf(log, sizeof log, "%s/node%d.log", a->dir, i + 1);
    /* On a network of its own, pbemd and the test connect from the
     * bridge: the node lets its LAN in to the database. */
    const char *const create[] = {
        "create",     "postgres",  "--pgdata",
        n->pgdata,    "--pgport",  port,
        "--hostname", n->host,     "--listen",
        n->host,      "--auth",    "trust",
        "--no-ssl",   "--monitor", monitor,
        "--dbname",   database,    "--name",
        name,         "--run",     n->netns[0] != '\0' ? "--pg-hba-lan" : NULL,
        NULL};
    n->keeper = spawn(a, n->netns, create, log);
}

/* Both nodes' PostgreSQL logs go to one file outside their data folders
 * (pg_rewind and pg_basebackup copy a data folder's log/ over the other
 * node's, erasing what a rejoining node logged before), each line with
 * its process, session and transaction, and every statement that took
 * half a second (a commit that waited for the standby). Set on node 1
 * before node 2 is copied from it. */
static void keep_logs(autofailover *a)
{
    make_folder(a, "pglog");
    char directory[160];
    snprintf(directory, sizeof directory,
             "ALTER SYSTEM SET log_directory = '%s/pglog'", a->dir);
    const char *const settings[] = {
        directory, "ALTER SYSTEM SET log_filename = 'postgresql.log'",
        "ALTER SYSTEM SET log_line_prefix = '%m [%p] %a %c %x '",
        "ALTER SYSTEM SET log_min_duration_statement = 500",
        "SELECT pg_reload_conf()"};
    PGconn *c = connect_to(&a->nodes[0], a->database);
    cr_assert_eq(PQstatus(c), CONNECTION_OK, "%s", PQerrorMessage(c));
    for (size_t i = 0; i < sizeof settings / sizeof *settings; i++) {
        PGresult *r = PQexec(c, settings[i]);
        cr_assert(PQresultStatus(r) == PGRES_COMMAND_OK ||
                      PQresultStatus(r) == PGRES_TUPLES_OK,
                  "%s: %s", settings[i], PQerrorMessage(c));
        PQclear(r);
    }
    PQfinish(c);
}

void autofailover_create(autofailover *a, const char *database,
                         bool own_networks)
{
    memset(a, 0, sizeof *a);
    find_bindir(a);
    snprintf(a->database, sizeof a->database, "%s", database);
    snprintf(a->monitor.host, sizeof a->monitor.host, "127.0.0.1");
    snprintf(a->gateway, sizeof a->gateway, "127.0.0.1");
    for (int i = 0; i < 2; i++)
        snprintf(a->nodes[i].host, sizeof a->nodes[i].host, "127.0.0.1");
    if (geteuid() == 0) {
        const struct passwd *pw = getpwnam("postgres");
        cr_assert_not_null(pw, "no 'postgres' user to run PostgreSQL as");
        a->uid = pw->pw_uid;
        a->gid = pw->pw_gid;
    } else {
        a->uid = geteuid();
        a->gid = getegid();
    }
    snprintf(a->dir, sizeof a->dir, "/tmp/pbem-af-XXXXXX");
    cr_assert_not_null(mkdtemp(a->dir));
    if (geteuid() == 0)
        cr_assert_eq(chown(a->dir, a->uid, a->gid), 0);
    static const char *const folders[] = {"config", "data", "run"};
    for (size_t i = 0; i < sizeof folders / sizeof *folders; i++)
        make_folder(a, folders[i]);
    if (own_networks)
        make_networks(a);

    char pgdata[sizeof a->monitor.pgdata];
    snprintf(pgdata, sizeof pgdata, "%s/monitor", a->dir);
    memcpy(a->monitor.pgdata, pgdata, sizeof pgdata);
    a->monitor.port = ports_free();
    char port[16], log[128];
    snprintf(port, sizeof port, "%d", a->monitor.port);
    snprintf(log, sizeof log, "%s/monitor.log", a->dir);
    /* The test reaches it on 127.0.0.1 (trusted there), the nodes on the
     * bridge. */
    char listen[40];
    snprintf(listen, sizeof listen, "127.0.0.1%s%s",
             strcmp(a->gateway, "127.0.0.1") != 0 ? "," : "",
             strcmp(a->gateway, "127.0.0.1") != 0 ? a->gateway : "");
    const char *const monitor[] = {
        "create", "monitor",    "--pgdata", a->monitor.pgdata, "--pgport",
        port,     "--hostname", a->gateway, "--listen",        listen,
        "--auth", "trust",      "--no-ssl", "--run",           NULL};
    a->monitor.keeper = spawn(a, NULL, monitor, log);
    long began = now_ms();
    /* Health checks every second; unhealthy after 3 s; a primary that
     * does not answer is demoted after 5 s (defaults: 5 s, 20 s, 30 s). */
    while (!monitor_exec(
        a, "ALTER SYSTEM SET pgautofailover.health_check_period = 1000")) {
        cr_assert_lt(now_ms() - began, CREATE_LIMIT_MS,
                     "the monitor did not start; see %s", log);
        poll(NULL, 0, 100);
    }
    static const char *const faster[] = {
        "ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000",
        "ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500",
        "ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout "
        "= 3000",
        "ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 5000",
        "SELECT pg_reload_conf()"};
    for (size_t i = 0; i < sizeof faster / sizeof *faster; i++)
        cr_assert(monitor_exec(a, faster[i]), "%s", faster[i]);

    create_node(a, 0, database);
    began = now_ms();
    for (;;) {
        char reported[32], goal[32];
        node_state(a, 0, reported, goal, sizeof reported);
        if (strcmp(reported, "single") == 0)
            break;
        cr_assert_lt(now_ms() - began, CREATE_LIMIT_MS,
                     "node 1 did not start (%s/%s); see %s/node1.log", reported,
                     goal, a->dir);
        poll(NULL, 0, 100);
    }
    keep_logs(a);
    create_node(a, 1, database);
    cr_assert_geq(autofailover_wait_secondary(a, 1, CREATE_LIMIT_MS), 0,
                  "node 2 did not become a secondary; see %s/node2.log",
                  a->dir);
    cr_assert_geq(autofailover_wait_primary(a, 0, CREATE_LIMIT_MS), 0,
                  "node 1 did not become primary; see %s/node1.log", a->dir);
}

void autofailover_url(const autofailover *a, const char *database, char *url,
                      size_t size)
{
    snprintf(url, size,
             "postgresql://postgres@%s:%d,%s:%d/%s"
             "?target_session_attrs=read-write&sslmode=disable",
             a->nodes[0].host, a->nodes[0].port, a->nodes[1].host,
             a->nodes[1].port, database);
}

/* The postmaster of node, from its postmaster.pid, or 0. */
static pid_t postmaster_of(const autofailover_node *n)
{
    char path[160];
    snprintf(path, sizeof path, "%s/postmaster.pid", n->pgdata);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    int pid = 0;
    if (fscanf(f, "%d", &pid) != 1)
        pid = 0;
    fclose(f);
    return (pid_t)pid;
}

static void reap(autofailover_node *n, long limit_ms)
{
    long began = now_ms();
    int status;
    while (n->keeper != 0 && now_ms() - began < limit_ms) {
        pid_t got = waitpid(n->keeper, &status, WNOHANG);
        if (got == n->keeper || (got < 0 && errno == ECHILD)) {
            n->keeper = 0;
            return;
        }
        poll(NULL, 0, 50);
    }
}

void autofailover_inflict(autofailover *a, int node, autofailover_fault fault)
{
    autofailover_node *n = &a->nodes[node];
    switch (fault) {
    case AUTOFAILOVER_KILL_POSTGRES: {
        pid_t postmaster = postmaster_of(n);
        cr_assert_gt(postmaster, 0, "node %d has no postmaster", node + 1);
        kill(postmaster, SIGKILL);
        break;
    }
    case AUTOFAILOVER_STOP_KEEPER:
        cr_assert_neq(n->keeper, 0);
        kill(n->keeper, SIGTERM);
        reap(n, 60000);
        cr_assert_eq(n->keeper, 0, "node %d's keeper did not stop in 60 s",
                     node + 1);
        break;
    case AUTOFAILOVER_FREEZE:
        cr_assert_neq(n->keeper, 0);
        kill(-n->keeper, SIGSTOP);
        break;
    case AUTOFAILOVER_CUT:
        cr_assert(n->link[0] != '\0', "cutting a node needs own networks");
        must_ip("link set %s down", n->link, NULL);
        break;
    }
}

void autofailover_recover(autofailover *a, int node, autofailover_fault fault)
{
    autofailover_node *n = &a->nodes[node];
    char log[128];
    snprintf(log, sizeof log, "%s/node%d.log", a->dir, node + 1);
    switch (fault) {
    case AUTOFAILOVER_KILL_POSTGRES:
        break;
    case AUTOFAILOVER_STOP_KEEPER:
        start_keeper(a, n, log);
        break;
    case AUTOFAILOVER_FREEZE:
        kill(-n->keeper, SIGCONT);
        break;
    case AUTOFAILOVER_CUT:
        must_ip("link set %s up", n->link, NULL);
        break;
    }
}

const char *autofailover_fault_name(autofailover_fault fault)
{
    switch (fault) {
    case AUTOFAILOVER_KILL_POSTGRES:
        return "kill -9 of the primary's postmaster";
    case AUTOFAILOVER_STOP_KEEPER:
        return "the primary's keeper stopped";
    case AUTOFAILOVER_FREEZE:
        return "the primary frozen (SIGSTOP)";
    case AUTOFAILOVER_CUT:
        return "the primary cut off the network";
    }
    return "?";
}

static int remove_entry(const char *path, const struct stat *st, int type,
                        struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    remove(path);
    return 0;
}

static void stop_node(autofailover_node *n)
{
    if (n->keeper != 0) {
        kill(-n->keeper, SIGCONT);
        kill(n->keeper, SIGTERM);
        reap(n, 30000);
        if (n->keeper != 0) {
            kill(-n->keeper, SIGKILL);
            reap(n, 5000);
        }
    }
    /* A postmaster its keeper left behind. */
    pid_t postmaster = postmaster_of(n);
    if (postmaster > 0 && kill(postmaster, 0) == 0) {
        kill(postmaster, SIGCONT);
        kill(postmaster, SIGKILL);
    }
}

void autofailover_remove(autofailover *a)
{
    if (a->dir[0] == '\0')
        return;
    stop_node(&a->nodes[0]);
    stop_node(&a->nodes[1]);
    stop_node(&a->monitor);
    remove_networks(a);
    if (getenv("PBEM_AUTOFAILOVER_KEEP") != NULL) {
        fprintf(stderr, "autofailover: kept %s (logs in pglog/ and *.log)\n",
                a->dir);
        a->dir[0] = '\0';
        return;
    }
    nftw(a->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    a->dir[0] = '\0';
}
