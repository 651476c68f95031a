/* The connection itself, without pbemd: a DATABASE_URL naming a host that
 * hangs (a socket that accepts and never answers, as a frozen server
 * does) before a host that works. libpq alone would spend the whole limit
 * on the first and never try the second; store/db.c must reach the
 * second within its limit. The working host is the test run's own
 * PostgreSQL (DATABASE_URL). */
#include <criterion/criterion.h>
#include <errno.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "store/db.h"

static char hung_dir[64];
static char hung_path[sizeof((struct sockaddr_un *)0)->sun_path];
static int hung_fd = -1;

static void clean_up(void)
{
    if (hung_fd >= 0)
        close(hung_fd);
    if (hung_path[0] != '\0')
        unlink(hung_path);
    if (hung_dir[0] != '\0')
        rmdir(hung_dir);
    db_shutdown();
}

/* The value of keyword in the test run's DATABASE_URL, or NULL. */
static const char *setting(PQconninfoOption *options, const char *keyword)
{
    for (PQconninfoOption *o = options; o->keyword != NULL; o++)
        if (strcmp(o->keyword, keyword) == 0)
            return o->val;
    return NULL;
}

Test(hosts, a_hung_first_host_does_not_keep_the_second_from_being_reached,
     .fini = clean_up, .timeout = 60)
{
    const char *url = getenv("DATABASE_URL");
    cr_assert_not_null(url, "DATABASE_URL is not set: run with make test");
    PQconninfoOption *options = PQconninfoParse(url, NULL);
    cr_assert_not_null(options, "DATABASE_URL does not parse");
    const char *host = setting(options, "host");
    const char *port = setting(options, "port");
    const char *user = setting(options, "user");
    const char *dbname = setting(options, "dbname");
    cr_assert(host != NULL && host[0] == '/' && strchr(host, ',') == NULL,
              "this test needs DATABASE_URL on one unix socket, not %s",
              host ? host : "the default");
    if (port == NULL)
        port = "5432";

    /* Listening with nobody to accept: the kernel completes the
     * connection, and the startup packet is never answered. */
    snprintf(hung_dir, sizeof hung_dir, "/tmp/pbem-hung-XXXXXX");
    cr_assert_not_null(mkdtemp(hung_dir), "mkdtemp: %s", strerror(errno));
    snprintf(hung_path, sizeof hung_path, "%s/.s.PGSQL.%s", hung_dir, port);
    hung_fd = socket(AF_UNIX, SOCK_STREAM, 0);
    cr_assert_geq(hung_fd, 0);
    struct sockaddr_un at = {.sun_family = AF_UNIX};
    memcpy(at.sun_path, hung_path, sizeof at.sun_path);
    cr_assert_eq(bind(hung_fd, (struct sockaddr *)&at, sizeof at), 0,
                 "bind %s: %s", hung_path, strerror(errno));
    cr_assert_eq(listen(hung_fd, 16), 0);

    char hosts[1024];
    snprintf(hosts, sizeof hosts,
             "host=%s,%s port=%s dbname=%s%s%s "
             "target_session_attrs=read-write",
             hung_dir, host, port, dbname ? dbname : "postgres",
             user ? " user=" : "", user ? user : "");
    PQconninfoFree(options);

    db_set_timeout(2000);
    apierr err = {0};
    cr_assert(db_init(hosts, &err),
              "the second host was not reached past the hung first: %s",
              err.message);
    PGconn *conn = db_conn(&err);
    cr_assert_not_null(conn, "%s", err.message);
    PGresult *r = PQexec(conn, "SELECT 1");
    cr_expect_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s",
                 PQerrorMessage(conn));
    PQclear(r);
}
