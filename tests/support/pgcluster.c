/* pgcluster.c */
#include "pgcluster.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <grp.h>
#include <libpq-fe.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Where initdb is: pg_config's answer, else Debian's versioned folders
 * (not on every user's PATH). */
static void find_bindir(char *out, size_t size)
{
    out[0] = '\0';
    FILE *p = popen("pg_config --bindir 2>/dev/null", "r");
    if (p != NULL) {
        if (fgets(out, (int)size, p) == NULL)
            out[0] = '\0';
        out[strcspn(out, "\n")] = '\0';
        pclose(p);
    }
    char initdb[300];
    snprintf(initdb, sizeof initdb, "%s/initdb", out);
    if (out[0] != '\0' && access(initdb, X_OK) == 0)
        return;
    glob_t found;
    if (glob("/usr/lib/postgresql/*/bin/initdb", 0, NULL, &found) == 0) {
        /* The last is the newest version. */
        snprintf(out, size, "%s", found.gl_pathv[found.gl_pathc - 1]);
        *strrchr(out, '/') = '\0';
        globfree(&found);
        return;
    }
    cr_assert_fail("PostgreSQL server binaries (initdb) not found; install "
                   "the postgresql package");
}

/* In a forked child: the user PostgreSQL runs as. Async-signal-safe calls
 * only (the test has other threads). */
static void become_owner(const pgcluster *c)
{
    if (geteuid() == 0 &&
        (setgroups(0, NULL) != 0 || setgid(c->gid) != 0 || setuid(c->uid) != 0))
        _exit(126);
}

/* Runs argv (a path first) as the owner, its output appended to the
 * cluster's log; the exit status. */
static int run(const pgcluster *c, char *const argv[])
{
    char log[128];
    snprintf(log, sizeof log, "%s/server.log", c->dir);
    pid_t pid = fork();
    cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
            dup2(fd, STDERR_FILENO) < 0)
            _exit(126);
        become_owner(c);
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void pgcluster_url(const pgcluster *c, const char *database, char *url,
                   size_t size)
{
    snprintf(url, size, "postgresql:///%s?host=%s&user=pbem", database, c->dir);
}

void pgcluster_start(pgcluster *c)
{
    cr_assert_eq(c->postmaster, 0, "the cluster already runs");
    char postgres[300], data[128], log[128], socket_dir[128];
    snprintf(postgres, sizeof postgres, "%s/postgres", c->bindir);
    snprintf(data, sizeof data, "%s/data", c->dir);
    snprintf(log, sizeof log, "%s/server.log", c->dir);
    snprintf(socket_dir, sizeof socket_dir, "unix_socket_directories=%s",
             c->dir);
    char *const argv[] = {postgres,
                          "-D",
                          data,
                          "-c",
                          "listen_addresses=",
                          "-c",
                          socket_dir,
                          "-c",
                          "unix_socket_permissions=0700",
                          "-c",
                          "max_connections=100",
                          "-c",
                          "fsync=on",
                          NULL};
    pid_t parent = getpid();
    pid_t pid = fork();
    cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
            dup2(fd, STDERR_FILENO) < 0)
            _exit(126);
        become_owner(c);
        /* After setuid, which clears it: a test that dies (a failed
         * assertion, a timeout) takes the postmaster with it, as an
         * immediate stop (SIGQUIT). */
        prctl(PR_SET_PDEATHSIG, SIGQUIT);
        if (getppid() != parent)
            _exit(0);
        execv(postgres, argv);
        _exit(127);
    }
    c->postmaster = pid;
    char url[256];
    pgcluster_url(c, "postgres", url, sizeof url);
    struct timespec began, now;
    clock_gettime(CLOCK_MONOTONIC, &began);
    for (;;) {
        if (PQping(url) == PQPING_OK)
            return;
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            c->postmaster = 0;
            cr_assert_fail("PostgreSQL exited while starting; see %s", log);
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        cr_assert_lt(now.tv_sec - began.tv_sec, 60,
                     "PostgreSQL did not accept connections within 60 s; "
                     "see %s",
                     log);
        poll(NULL, 0, 10);
    }
}

void pgcluster_stop(pgcluster *c, const char *mode)
{
    if (c->postmaster == 0)
        return;
    char pg_ctl[300], data[128];
    snprintf(pg_ctl, sizeof pg_ctl, "%s/pg_ctl", c->bindir);
    snprintf(data, sizeof data, "%s/data", c->dir);
    char *const argv[] = {pg_ctl,       "stop", "-D", data, "-m",
                          (char *)mode, "-w",   "-t", "60", NULL};
    int status = run(c, argv);
    while (waitpid(c->postmaster, NULL, 0) < 0 && errno == EINTR)
        ;
    c->postmaster = 0;
    cr_assert_eq(status, 0, "pg_ctl stop -m %s failed; see %s/server.log", mode,
                 c->dir);
}

/* The folder of a new cluster under /tmp, owned by whoever runs
 * PostgreSQL. */
static void make_folder(pgcluster *c)
{
    memset(c, 0, sizeof *c);
    find_bindir(c->bindir, sizeof c->bindir);
    /* Under /tmp, not the run's TMPDIR: a unix socket path is short, and
     * the postgres user must get through every folder above the data. */
    snprintf(c->dir, sizeof c->dir, "/tmp/pbem-pg-XXXXXX");
    cr_assert_not_null(mkdtemp(c->dir), "mkdtemp: %s", strerror(errno));
    c->uid = geteuid();
    c->gid = getegid();
    if (geteuid() == 0) {
        struct passwd *pw = getpwnam("postgres");
        cr_assert_not_null(pw, "as root, PostgreSQL runs as the 'postgres' "
                               "user, which does not exist");
        c->uid = pw->pw_uid;
        c->gid = pw->pw_gid;
        cr_assert_eq(chown(c->dir, c->uid, c->gid), 0, "chown %s: %s", c->dir,
                     strerror(errno));
    }
}

void pgcluster_create(pgcluster *c, const char *database)
{
    make_folder(c);
    char initdb[300], data[128];
    snprintf(initdb, sizeof initdb, "%s/initdb", c->bindir);
    snprintf(data, sizeof data, "%s/data", c->dir);
    char *const argv[] = {initdb,      "-D",   data,
                          "-U",        "pbem", "--auth=trust",
                          "-E",        "UTF8", "--locale=C.UTF-8",
                          "--no-sync", NULL};
    cr_assert_eq(run(c, argv), 0, "initdb failed; see %s/server.log", c->dir);
    pgcluster_start(c);
    char url[256], sql[160];
    pgcluster_url(c, "postgres", url, sizeof url);
    PGconn *conn = PQconnectdb(url);
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    snprintf(sql, sizeof sql, "CREATE DATABASE \"%s\"", database);
    PGresult *r = PQexec(conn, sql);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s",
                 PQerrorMessage(conn));
    PQclear(r);
    PQfinish(conn);
}

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

void pgcluster_remove(pgcluster *c)
{
    if (c->bindir[0] == '\0' || c->dir[0] == '\0')
        return;
    if (c->postmaster != 0) {
        /* Not pgcluster_stop: this runs in a test's clean-up, where a
         * failed assertion must not stop the folder's removal. */
        kill(c->postmaster, SIGQUIT);
        while (waitpid(c->postmaster, NULL, 0) < 0 && errno == EINTR)
            ;
        c->postmaster = 0;
    }
    nftw(c->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    c->dir[0] = '\0';
}

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Rows sql returns on the cluster's database postgres, with param as $1
 * (or none when NULL); -1 when it cannot be asked. */
static int count_rows(const pgcluster *c, const char *sql, const char *param)
{
    char url[256];
    pgcluster_url(c, "postgres", url, sizeof url);
    PGconn *conn = PQconnectdb(url);
    int rows = -1;
    if (PQstatus(conn) == CONNECTION_OK) {
        const char *params[] = {param};
        PGresult *r =
            PQexecParams(conn, sql, param ? 1 : 0, NULL, params, NULL, NULL, 0);
        if (PQresultStatus(r) == PGRES_TUPLES_OK)
            rows = PQntuples(r);
        PQclear(r);
    }
    PQfinish(conn);
    return rows;
}

/* Polls until sql returns a row on c, at most 60 s; fails the test with
 * what (a sentence) otherwise. */
static void wait_for_row(const pgcluster *c, const char *sql, const char *param,
                         const char *what)
{
    long began = now_ms();
    while (count_rows(c, sql, param) <= 0) {
        cr_assert_lt(now_ms() - began, 60000,
                     "%s within 60 s; see %s/server.log", what, c->dir);
        /* The pace of the poll, not a wait for anything in particular. */
        poll(NULL, 0, 10);
    }
}

/* Copies the running primary into standby's folder and starts it there,
 * following primary as name. */
static void copy_from(pgcluster *standby, const pgcluster *primary,
                      const char *name)
{
    char basebackup[300], data[128], source[256];
    snprintf(basebackup, sizeof basebackup, "%s/pg_basebackup",
             standby->bindir);
    snprintf(data, sizeof data, "%s/data", standby->dir);
    /* -R writes standby.signal and a primary_conninfo made of these
     * settings: application_name is the name the primary knows it by. */
    snprintf(source, sizeof source, "host=%s user=pbem application_name=%s",
             primary->dir, name);
    char *const argv[] = {basebackup, "-D",   data,        "-d",
                          source,     "-R",   "-X",        "stream",
                          "-c",       "fast", "--no-sync", NULL};
    cr_assert_eq(run(standby, argv), 0,
                 "pg_basebackup failed; see %s/server.log", standby->dir);
    pgcluster_start(standby);
    wait_for_row(primary,
                 "SELECT 1 FROM pg_stat_replication WHERE application_name = "
                 "$1 AND state = 'streaming'",
                 name, "the standby did not stream from the primary");
}

void pgcluster_create_standby(pgcluster *standby, const pgcluster *primary,
                              const char *name)
{
    make_folder(standby);
    copy_from(standby, primary, name);
}

void pgcluster_rebuild_as_standby(pgcluster *old, const pgcluster *primary,
                                  const char *name)
{
    pgcluster_stop(old, "immediate");
    char data[128];
    snprintf(data, sizeof data, "%s/data", old->dir);
    nftw(data, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    copy_from(old, primary, name);
}

void pgcluster_make_synchronous(pgcluster *primary, const char *name)
{
    char url[256];
    pgcluster_url(primary, "postgres", url, sizeof url);
    PGconn *conn = PQconnectdb(url);
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    /* ALTER SYSTEM takes no parameters: the name as a quoted literal. */
    char *literal = PQescapeLiteral(conn, name, strlen(name));
    cr_assert_not_null(literal, "%s", PQerrorMessage(conn));
    char sql[256];
    snprintf(sql, sizeof sql, "ALTER SYSTEM SET synchronous_standby_names = %s",
             literal);
    PQfreemem(literal);
    const char *const statements[] = {
        sql, "ALTER SYSTEM SET synchronous_commit = on",
        "SELECT pg_reload_conf()"};
    for (size_t i = 0; i < sizeof statements / sizeof *statements; i++) {
        PGresult *r = PQexec(conn, statements[i]);
        cr_assert(PQresultStatus(r) == PGRES_COMMAND_OK ||
                      PQresultStatus(r) == PGRES_TUPLES_OK,
                  "%s: %s", statements[i], PQerrorMessage(conn));
        PQclear(r);
    }
    PQfinish(conn);
    wait_for_row(primary,
                 "SELECT 1 FROM pg_stat_replication WHERE application_name = "
                 "$1 AND sync_state = 'sync'",
                 name, "the standby did not become synchronous");
}

void pgcluster_promote(pgcluster *standby)
{
    char pg_ctl[300], data[128];
    snprintf(pg_ctl, sizeof pg_ctl, "%s/pg_ctl", standby->bindir);
    snprintf(data, sizeof data, "%s/data", standby->dir);
    char *const argv[] = {pg_ctl, "promote", "-D", data,
                          "-w",   "-t",      "60", NULL};
    cr_assert_eq(run(standby, argv), 0,
                 "pg_ctl promote failed; see %s/server.log", standby->dir);
    wait_for_row(standby, "SELECT 1 WHERE NOT pg_is_in_recovery()", NULL,
                 "the promoted standby did not accept writes");
}

void pgcluster_multi_url(const pgcluster *const *clusters, int n,
                         const char *database, char *url, size_t size)
{
    char hosts[512] = "";
    size_t used = 0;
    for (int i = 0; i < n && used < sizeof hosts; i++)
        used += (size_t)snprintf(hosts + used, sizeof hosts - used, "%s%s",
                                 i ? "," : "", clusters[i]->dir);
    /* Every socket is .s.PGSQL.5432 in its own folder: one port for all. */
    snprintf(url, size,
             "postgresql:///%s?host=%s&user=pbem"
             "&target_session_attrs=read-write",
             database, hosts);
}

/* The parent of process pid, from /proc, or 0. */
static pid_t parent_of(pid_t pid)
{
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    bool read = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    /* "pid (name) state ppid …": the name may hold anything but ends at
     * the last parenthesis. */
    char *name_end = read ? strrchr(line, ')') : NULL;
    char state;
    int parent;
    if (name_end == NULL ||
        sscanf(name_end + 1, " %c %d", &state, &parent) != 2)
        return 0;
    return (pid_t)parent;
}

/* The processes whose parent is parent, at most max of them. */
static int children_of(pid_t parent, pid_t *out, int max)
{
    int count = 0;
    DIR *proc = opendir("/proc");
    cr_assert_not_null(proc, "/proc: %s", strerror(errno));
    struct dirent *e;
    while (count < max && (e = readdir(proc)) != NULL) {
        pid_t pid = (pid_t)atoi(e->d_name);
        if (pid > 0 && parent_of(pid) == parent)
            out[count++] = pid;
    }
    closedir(proc);
    return count;
}

void pgcluster_signal(const pgcluster *c, int sig)
{
    if (c->postmaster == 0)
        return;
    /* Its children are found before the postmaster is signalled: once a
     * SIGKILL has ended it they belong to init and are found no more (a
     * frozen cluster's were left stopped for good). Then the postmaster,
     * so it starts nothing new, then the children, then any it started
     * between the two. */
    pid_t children[512];
    int count = children_of(c->postmaster, children, 512);
    kill(c->postmaster, sig);
    for (int i = 0; i < count; i++)
        kill(children[i], sig);
    pid_t late[512];
    int late_count = children_of(c->postmaster, late, 512);
    for (int i = 0; i < late_count; i++)
        kill(late[i], sig);
}
