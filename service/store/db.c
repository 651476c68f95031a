/* db.c: thread-local libpq connections and small query helpers. */
#include "store/db.h"

#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "core/log.h"
#include "core/metrics.h"

#include <pthread.h>

#define DB_THREADS_MAX 256
#define DB_PREPARED_MAX 128

/* Statements are prepared once per connection and run by name after that,
 * so PostgreSQL parses and plans each one once, not on every call. A
 * statement is found by its address and then its text: most SQL is a
 * string literal, but some is built in a buffer that is reused. */
typedef struct prepared_statement {
    const void *sql; /* the caller's address for the text (queue_send_as) */
    char *text;
    char name[16];
} prepared_statement;

/* One per thread that has connected. The slots live in a shared table, not
 * in thread-local storage, because libmicrohttpd ends its threads without
 * a hook: db_shutdown closes and frees what they leave behind. */
typedef struct conn_slot {
    PGconn *conn;
    prepared_statement prepared[DB_PREPARED_MAX];
    int prepared_count;
    /* Names are never reused: a PREPARE that failed in a pipeline is
     * forgotten out of order (forget_name). */
    int names_made;
    long generation; /* connections_generation when it was made */
} conn_slot;

/* A statement sent in pipeline mode whose result is read later, when a
 * statement needs its own (drain): a PREPARE (name set) or a statement. */
typedef struct queued_statement {
    char name[16];
    char sql[81]; /* the start of the text, for the log */
    db_explain *explain;
    long long facts[2];
} queued_statement;

/* At most this many statements (PREPAREs included) wait unread; one more
 * is sent after the ones waiting were read. A shared commit's whole batch,
 * BEGIN to COMMIT, fits. */
#define DB_QUEUE_MAX 256

/* This thread's queue, on one connection at a time: the connection is in
 * pipeline mode exactly while count > 0. */
typedef struct statement_queue {
    PGconn *conn;
    int count;
    bool send_failed;
    queued_statement items[DB_QUEUE_MAX];
} statement_queue;

static char *database_url;
/* How long any one wait on PostgreSQL may last (connecting, or one
 * statement), for every thread; a thread may shorten it for a while
 * (db_ping). */
static int timeout_ms = DB_TIMEOUT_MS;
static __thread int thread_timeout_ms;
/* The last wait of this thread ran out of time (for the log). */
static __thread bool timed_out;
/* Raised whenever a thread finds its connection lost: every thread's
 * connection made before is then made again before its next use. After a
 * failover, a connection that sat idle on the old primary would
 * otherwise come back to life with it (a frozen machine thawed, a cut
 * cable plugged in again) and answer from its stale data until its keeper
 * demotes it; made again, it goes to a host whose commits reach the
 * standby (connect_within). */
static atomic_long connections_generation;
static conn_slot *slots[DB_THREADS_MAX];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread conn_slot *thread_slot;
static __thread statement_queue queue;

static bool queue_open(PGconn *conn);
/* Shared commits (the section at the end of this file). */
static bool shared_recording(const PGconn *conn);

static void forget_prepared(conn_slot *slot)
{
    for (int i = 0; i < slot->prepared_count; i++)
        free(slot->prepared[i].text);
    slot->prepared_count = 0;
}

/* Registers a new slot for this thread's connection; a thread beyond the
 * table's size still works, its slot is only not freed at shutdown. */
static conn_slot *new_slot(PGconn *conn)
{
    conn_slot *slot = calloc(1, sizeof *slot);
    if (slot == NULL)
        abort();
    slot->conn = conn;
    pthread_mutex_lock(&slots_lock);
    for (int i = 0; i < DB_THREADS_MAX; i++) {
        if (slots[i] == NULL) {
            slots[i] = slot;
            break;
        }
    }
    pthread_mutex_unlock(&slots_lock);
    return slot;
}

static void drop_slot(conn_slot *slot)
{
    pthread_mutex_lock(&slots_lock);
    for (int i = 0; i < DB_THREADS_MAX; i++) {
        if (slots[i] == slot)
            slots[i] = NULL;
    }
    pthread_mutex_unlock(&slots_lock);
    if (queue.conn == slot->conn) {
        queue.count = 0;
        queue.conn = NULL;
    }
    forget_prepared(slot);
    PQfinish(slot->conn);
    free(slot);
}

/* Where the URL points, without user or password, for messages. */
static void describe_target(const char *url, char *out, size_t size)
{
    char *parse_error = NULL;
    PQconninfoOption *options = PQconninfoParse(url, &parse_error);
    if (options == NULL) {
        snprintf(out, size, "(unparseable URL)");
        PQfreemem(parse_error);
        return;
    }
    const char *host = NULL, *port = NULL, *dbname = NULL;
    for (PQconninfoOption *o = options; o->keyword != NULL; o++) {
        if (o->val == NULL)
            continue;
        if (strcmp(o->keyword, "host") == 0)
            host = o->val;
        else if (strcmp(o->keyword, "port") == 0)
            port = o->val;
        else if (strcmp(o->keyword, "dbname") == 0)
            dbname = o->val;
    }
    snprintf(out, size, "database \"%s\" on %s%s%s", dbname ? dbname : "?",
             host ? host : "the default socket", port ? ":" : "",
             port ? port : "");
    PQconninfoFree(options);
}

static void first_line(const char *text, char *out, size_t size)
{
    snprintf(out, size, "%s", text ? text : "");
    out[strcspn(out, "\n")] = '\0';
}

/* Server notices ("relation already exists, skipping") are not news. */
static void ignore_notice(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

static int limit_ms(void)
{
    return thread_timeout_ms > 0 ? thread_timeout_ms : timeout_ms;
}

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Waits until conn's socket is ready for events or deadline (now_ms)
 * passes: true when ready. */
static bool wait_for(PGconn *conn, short events, long long deadline)
{
    for (;;) {
        long long left = deadline - now_ms();
        if (left <= 0)
            return false;
        struct pollfd p = {.fd = PQsocket(conn), .events = events};
        int n = poll(&p, 1, (int)left);
        if (n > 0)
            return true;
        if (n == 0)
            return false;
    }
}

/* One attempt on the URL within limit milliseconds, a hung server
 * included (libpq's own connect_timeout only covers PQconnectdb, in whole
 * seconds); host, hostaddr and port, when not NULL, stand for the URL's.
 * The URL's own settings come after the defaults, so they override them:
 * keepalives, so a peer that vanished is noticed on an idle connection,
 * and client_connection_check_interval, so the server too gives up on
 * what the client no longer waits for (the client shuts the connection
 * when its limit passes). Not statement_timeout: PostgreSQL answers a
 * COMMIT whose wait for the synchronous standby was cancelled as
 * committed (with a mere WARNING), so a move would be acknowledged that
 * only the primary has, and a failover would lose it. The result is never
 * NULL; PQstatus tells. */
static PGconn *connect_one(const char *host, const char *hostaddr,
                           const char *port, int limit)
{
    char options[64];
    snprintf(options, sizeof options, "-c client_connection_check_interval=%d",
             timeout_ms < 1000 ? timeout_ms : 1000);
    /* libpq skips a NULL value: the URL's stays. The fallback name is
     * pbemd's unless the URL names one: pg_stat_activity and the server's
     * log then tell pbemd's connections from any other client's. */
    const char *const keys[] = {"fallback_application_name",
                                "keepalives",
                                "keepalives_idle",
                                "keepalives_interval",
                                "keepalives_count",
                                "options",
                                "dbname",
                                "host",
                                "hostaddr",
                                "port",
                                NULL};
    const char *const values[] = {"pbemd",  "1",     "30",         "10",
                                  "3",      options, database_url, host,
                                  hostaddr, port,    NULL};
    PGconn *conn = PQconnectStartParams(keys, values, 1);
    if (conn == NULL)
        abort();
    long long deadline = now_ms() + limit;
    PostgresPollingStatusType state = PGRES_POLLING_WRITING;
    while (PQstatus(conn) != CONNECTION_BAD && state != PGRES_POLLING_OK &&
           state != PGRES_POLLING_FAILED) {
        short events = state == PGRES_POLLING_READING ? POLLIN : POLLOUT;
        if (!wait_for(conn, events, deadline)) {
            timed_out = true;
            /* Closing the socket makes libpq see the failure. */
            shutdown(PQsocket(conn), SHUT_RDWR);
            PQconnectPoll(conn);
            break;
        }
        state = PQconnectPoll(conn);
    }
    return conn;
}

/* Entries in a comma-separated list of libpq's (hosts, ports); 0 for
 * none. */
static int list_length(const char *list)
{
    if (list == NULL || list[0] == '\0')
        return 0;
    int n = 1;
    for (const char *c = list; *c != '\0'; c++)
        n += *c == ',';
    return n;
}

/* Entry i of list into out, or the whole list when it has a single entry
 * (libpq uses one port for every host); NULL without a list. */
static const char *list_item(const char *list, int i, char *out, size_t size)
{
    if (list_length(list) == 0)
        return NULL;
    if (list_length(list) == 1)
        return list;
    const char *at = list;
    for (; i > 0 && at != NULL; i--) {
        at = strchr(at, ',');
        if (at != NULL)
            at++;
    }
    if (at == NULL)
        return NULL;
    size_t len = strcspn(at, ",");
    snprintf(out, size, "%.*s", (int)(len < size ? len : size - 1), at);
    return out;
}

static PGresult *next_result(PGconn *conn, long long deadline);

/* A transaction that writes to the log, and no more: a commit waits for
 * the synchronous standbys only when its transaction wrote something (an
 * xid alone, as pg_current_xact_id() takes, commits without waiting). A
 * transactional message goes to the log and nowhere else; nothing reads
 * it. */
#define WRITE_TO_THE_LOG "SELECT pg_logical_emit_message(true, 'pbem', '')"

/* Whether a commit on conn reaches the synchronous standbys before
 * deadline (now_ms) (WRITE_TO_THE_LOG). A primary that lost its place
 * still takes writes for a moment: its keeper restarts a crashed
 * PostgreSQL as it was, before it learns from the monitor that the
 * standby was promoted, and a frozen one thaws as it was. It has no
 * standby any more, so its commits wait; what it shows is behind the new
 * primary, and what it showed of its own last commits (made visible by
 * the crash) the new primary never had. */
static bool commits_replicate(PGconn *conn, long long deadline)
{
    if (PQsendQuery(conn, WRITE_TO_THE_LOG) == 0)
        return false;
    bool ok = false;
    PGresult *result;
    while ((result = next_result(conn, deadline)) != NULL) {
        ok = PQresultStatus(result) == PGRES_TUPLES_OK;
        PQclear(result);
    }
    if (!ok && PQstatus(conn) == CONNECTION_OK) {
        /* So that it reads as failed, should it be the last host. */
        shutdown(PQsocket(conn), SHUT_RDWR);
        PQconsumeInput(conn);
    }
    return ok && PQstatus(conn) == CONNECTION_OK;
}

/* Connects within limit milliseconds. With several hosts (a primary and
 * its standbys, target_session_attrs=read-write), each is tried in turn
 * with its share of what is left of the limit: a host that hangs (a
 * frozen machine, a network that drops everything) must not use up the
 * whole limit before libpq would try the next, or a failover is never
 * followed. A host is taken only when a commit on it reaches the
 * synchronous standbys within its share (commits_replicate): with
 * automatic failover, libpq's read-write test alone may pick an old
 * primary that is about to be demoted. */
static PGconn *connect_within(int limit)
{
    PQconninfoOption *options = PQconninfoParse(database_url, NULL);
    const char *host = NULL, *hostaddr = NULL, *port = NULL;
    for (PQconninfoOption *o = options; o != NULL && o->keyword != NULL; o++) {
        if (strcmp(o->keyword, "host") == 0)
            host = o->val;
        else if (strcmp(o->keyword, "hostaddr") == 0)
            hostaddr = o->val;
        else if (strcmp(o->keyword, "port") == 0)
            port = o->val;
    }
    int hosts = list_length(host) > list_length(hostaddr)
                    ? list_length(host)
                    : list_length(hostaddr);
    if (hosts <= 1) {
        PQconninfoFree(options);
        return connect_one(NULL, NULL, NULL, limit);
    }
    long long deadline = now_ms() + limit;
    PGconn *conn = NULL;
    for (int i = 0; i < hosts; i++) {
        long long left = deadline - now_ms();
        int share = (int)(left / (hosts - i));
        if (share < 1)
            share = 1;
        long long host_deadline = now_ms() + share;
        char host_i[256], hostaddr_i[64], port_i[16];
        PQfinish(conn);
        conn =
            connect_one(list_item(host, i, host_i, sizeof host_i),
                        list_item(hostaddr, i, hostaddr_i, sizeof hostaddr_i),
                        list_item(port, i, port_i, sizeof port_i), share);
        if (PQstatus(conn) == CONNECTION_OK &&
            commits_replicate(conn, host_deadline))
            break;
    }
    PQconninfoFree(options);
    return conn;
}

static PGconn *connect_now(apierr *err)
{
    char *parse_error = NULL;
    PQconninfoOption *parsed = PQconninfoParse(database_url, &parse_error);
    if (parsed == NULL) {
        char detail[160];
        first_line(parse_error, detail, sizeof detail);
        PQfreemem(parse_error);
        apierr_set(err, 503, "database_unreachable",
                   "DATABASE_URL is not a valid PostgreSQL connection URL "
                   "(%s); fix it, or unset it to use the private server",
                   detail);
        return NULL;
    }
    PQconninfoFree(parsed);
    PGconn *conn = connect_within(limit_ms());
    if (PQstatus(conn) != CONNECTION_OK) {
        char target[200], detail[200];
        describe_target(database_url, target, sizeof target);
        first_line(PQerrorMessage(conn), detail, sizeof detail);
        apierr_set(err, 503, "database_unreachable",
                   "cannot reach PostgreSQL (%s): %s; start the server or "
                   "correct DATABASE_URL",
                   target, detail);
        PQfinish(conn);
        return NULL;
    }
    PQsetNoticeProcessor(conn, ignore_notice, NULL);
    return conn;
}

PGconn *db_listen(const char *channel, apierr *err)
{
    /* The channel goes into the statement as an identifier: only the
     * fixed names of this code, never text from outside. */
    for (const char *c = channel; *c != '\0'; c++)
        if (!((*c >= 'a' && *c <= 'z') || *c == '_'))
            abort();
    PGconn *conn = connect_now(err);
    if (conn == NULL)
        return NULL;
    char sql[96];
    snprintf(sql, sizeof sql, "LISTEN %s", channel);
    PGresult *r = PQexec(conn, sql);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (!ok || PQsetnonblocking(conn, 1) != 0) {
        char detail[200];
        first_line(PQerrorMessage(conn), detail, sizeof detail);
        apierr_set(err, 503, "database_unavailable", "cannot LISTEN on %s: %s",
                   channel, detail);
        PQfinish(conn);
        return NULL;
    }
    return conn;
}

bool db_init(const char *url, apierr *err)
{
    free(database_url);
    database_url = strdup(url);
    PGconn *conn = connect_now(err);
    if (conn == NULL)
        return false;
    PQfinish(conn);
    return true;
}

/* A connection PostgreSQL closed while it sat idle (a restart, a
 * failover, an administrator's pg_terminate_backend) still reads
 * CONNECTION_OK until something is sent on it, and the statement sent then
 * fails. Reading what waits on its socket (libpq's sockets never block)
 * finds the close, or the FATAL message before it, at no cost when nothing
 * waits. Only between transactions: a caller inside one owns it. */
static bool still_open(PGconn *conn)
{
    if (PQstatus(conn) != CONNECTION_OK)
        return false;
    if (PQtransactionStatus(conn) != PQTRANS_IDLE || queue_open(conn) ||
        shared_recording(conn))
        return true;
    /* Nothing waiting (the common case) is one look, without reading. */
    char next;
    ssize_t waiting =
        recv(PQsocket(conn), &next, 1, MSG_PEEK | MSG_DONTWAIT);
    if (waiting < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return true;
    /* Twice: a read that finds the server's parting message returns it
     * without looking for the close that follows it. */
    for (int i = 0; i < 2; i++)
        if (PQconsumeInput(conn) == 0 || PQstatus(conn) != CONNECTION_OK)
            return false;
    return true;
}

PGconn *db_conn(apierr *err)
{
    /* Between transactions only: a caller inside one owns it. */
    if (thread_slot != NULL && !db_in_transaction(thread_slot->conn) &&
        thread_slot->generation != atomic_load(&connections_generation)) {
        drop_slot(thread_slot);
        thread_slot = NULL;
    }
    if (thread_slot != NULL && still_open(thread_slot->conn))
        return thread_slot->conn;
    if (thread_slot != NULL) {
        atomic_fetch_add(&connections_generation, 1);
        log_warn("database: this thread's connection was closed; "
                 "reconnecting, and so will the other threads");
    }
    if (thread_slot != NULL) {
        /* Not PQreset: it waits on a hung server without limit, and on
         * the first of several hosts until the kernel gives up. */
        drop_slot(thread_slot);
        thread_slot = NULL;
    }
    /* Read first: a loss seen while this connects retires it too. */
    long generation = atomic_load(&connections_generation);
    PGconn *conn = connect_now(err);
    if (conn == NULL) {
        log_error("%s", err->message);
        /* The sentence for the operator is logged; clients learn only
         * that a retry may work. */
        apierr_set(err, 503, "database_unavailable",
                   "the database cannot be reached just now; try again "
                   "shortly");
        err->retry_after = DB_RETRY_AFTER_SECONDS;
        return NULL;
    }
    thread_slot = new_slot(conn);
    thread_slot->generation = generation;
    return conn;
}

void db_close_thread(void)
{
    if (thread_slot != NULL)
        drop_slot(thread_slot);
    thread_slot = NULL;
}

void db_shutdown(void)
{
    pthread_mutex_lock(&slots_lock);
    for (int i = 0; i < DB_THREADS_MAX; i++) {
        if (slots[i] != NULL) {
            forget_prepared(slots[i]);
            PQfinish(slots[i]->conn);
            free(slots[i]);
        }
        slots[i] = NULL;
    }
    pthread_mutex_unlock(&slots_lock);
    free(database_url);
    database_url = NULL;
}

/* The next result in the pipeline, waiting until deadline at most (then
 * the socket is shut, so that the connection reads as lost). NULL ends
 * each statement's results. */
static PGresult *next_result(PGconn *conn, long long deadline)
{
    while (PQisBusy(conn)) {
        if (!wait_for(conn, POLLIN, deadline)) {
            timed_out = true;
            shutdown(PQsocket(conn), SHUT_RDWR);
        }
        if (PQconsumeInput(conn) == 0)
            break;
    }
    return PQgetResult(conn);
}

/* The result of what was just sent on conn, waiting at most the limit: a
 * server that hangs (frozen, or a network that drops everything) must not
 * hold the request, nor its worker, for longer. Out of time, the socket is
 * shut so the connection reads as lost: the caller's next statement (a
 * ROLLBACK) fails at once and db_conn makes a new one. Like PQexec, the
 * last result, never NULL. */
static PGresult *await(PGconn *conn, int sent)
{
    timed_out = false;
    if (sent == 0)
        return PQmakeEmptyPGresult(conn, PGRES_FATAL_ERROR);
    long long deadline = now_ms() + limit_ms();
    PGresult *last = NULL;
    for (;;) {
        PGresult *result = next_result(conn, deadline);
        if (result == NULL)
            break;
        PQclear(last);
        last = result;
        if (PQstatus(conn) != CONNECTION_OK)
            break;
    }
    return last != NULL ? last : PQmakeEmptyPGresult(conn, PGRES_FATAL_ERROR);
}

static PGresult *exec_params(PGconn *conn, const char *sql, int nparams,
                             const char *const *params)
{
    return await(conn, PQsendQueryParams(conn, sql, nparams, NULL, params, NULL,
                                         NULL, 0));
}

static PGresult *exec_prepared(PGconn *conn, const char *name, int nparams,
                               const char *const *params)
{
    return await(
        conn, PQsendQueryPrepared(conn, name, nparams, params, NULL, NULL, 0));
}

/* Runs sql on conn: by name once prepared on this thread's own connection
 * (prepared lazily, on first use); any other connection (tests, the
 * migrator) runs it unnamed. Transaction control is run as it is: it has
 * nothing to plan. A failed PREPARE falls back to running it
 * unnamed so the caller sees the statement's own error. */
static PGresult *run(PGconn *conn, const char *sql, int nparams,
                     const char *const *params)
{
    conn_slot *slot = thread_slot;
    if (slot == NULL || conn != slot->conn || nparams == 0)
        return exec_params(conn, sql, nparams, params);
    for (int i = 0; i < slot->prepared_count; i++) {
        prepared_statement *p = &slot->prepared[i];
        if (p->sql == sql && strcmp(p->text, sql) == 0)
            return exec_prepared(conn, p->name, nparams, params);
    }
    if (slot->prepared_count < DB_PREPARED_MAX) {
        prepared_statement *p = &slot->prepared[slot->prepared_count];
        snprintf(p->name, sizeof p->name, "s%d", slot->names_made++);
        PGresult *made =
            await(conn, PQsendPrepare(conn, p->name, sql, nparams, NULL));
        bool ok = PQresultStatus(made) == PGRES_COMMAND_OK;
        PQclear(made);
        if (ok) {
            p->sql = sql;
            p->text = strdup(sql);
            slot->prepared_count++;
            return exec_prepared(conn, p->name, nparams, params);
        }
        if (PQstatus(conn) != CONNECTION_OK)
            return PQmakeEmptyPGresult(conn, PGRES_FATAL_ERROR);
    }
    return exec_params(conn, sql, nparams, params);
}

/* Logs libpq's sentence with the SQLSTATE for the operator, gives the
 * client a sentence without database details (the code keeps the SQLSTATE
 * for callers such as unique-violation checks), and frees result. A unique
 * violation is how two racing requests meet (a seat taken, a head moved, a
 * nonce reused) and its caller answers 409, so it is logged as information;
 * one nobody handles still ends as a 500, which the request log warns of. */
static void report_failure(PGconn *conn, PGresult *result, const char *sql,
                           apierr *err)
{
    char detail[240];
    first_line(PQresultErrorMessage(result), detail, sizeof detail);
    /* The connection itself failed (PostgreSQL restarted or went away
     * mid-statement): not the operation's fault, and worth a retry. */
    if (PQstatus(conn) != CONNECTION_OK) {
        log_warn("database connection lost: %s in: %.80s",
                 timed_out ? "no answer in time" : detail, sql);
        apierr_set(err, 503, "database_unavailable",
                   "the connection to the database was lost; try again "
                   "shortly");
        err->retry_after = DB_RETRY_AFTER_SECONDS;
        PQclear(result);
        return;
    }
    if (strcmp(db_sqlstate(result), "23505") == 0 ||
        strcmp(db_sqlstate(result), DB_STALE_HEAD) == 0)
        log_info("database conflict: %s in: %.80s", detail, sql);
    else
        log_error("database: %s (SQLSTATE %s) in: %.80s", detail,
                  db_sqlstate(result), sql);
    apierr_set(err, 500, "database",
               "the database refused the operation; the incident is logged");
    snprintf(err->code, sizeof err->code, "database:%s", db_sqlstate(result));
    PQclear(result);
}

/* ---- the queue (pipeline mode) ---------------------------------------
 *
 * db_queue sends a statement without reading its result: libpq's pipeline
 * mode keeps the results in order on the socket. The next statement that
 * needs its own result (db_query, db_command: a read, or the COMMIT) goes
 * after them with a Sync, and drain reads everything at once: a whole
 * transaction (BEGIN, the append, the nonce, COMMIT) costs one wait. A Sync
 * inside a BEGIN block commits nothing; after an error the server skips
 * what follows up to the Sync, so the first failure is the one reported.
 * Outside a transaction nothing is queued (a Sync would commit it). */

static bool queue_open(PGconn *conn)
{
    return queue.count > 0 && queue.conn == conn;
}

static void forget_name(const char *name)
{
    conn_slot *slot = thread_slot;
    for (int i = 0; slot != NULL && i < slot->prepared_count; i++) {
        if (strcmp(slot->prepared[i].name, name) == 0) {
            free(slot->prepared[i].text);
            slot->prepared[i] = slot->prepared[--slot->prepared_count];
            return;
        }
    }
}

static void queue_push(const char *name, const char *sql, db_explain *explain,
                       const long long *facts)
{
    queued_statement *q = &queue.items[queue.count++];
    snprintf(q->name, sizeof q->name, "%s", name);
    snprintf(q->sql, sizeof q->sql, "%s", sql);
    q->explain = explain;
    q->facts[0] = facts ? facts[0] : 0;
    q->facts[1] = facts ? facts[1] : 0;
}

/* Sends sql into conn's pipeline (entering pipeline mode for the first),
 * prepared on first use like run(): the PREPARE is queued too, with the
 * statement's facts. id is the statement's identity for that (the address
 * its caller gave, which a recorded copy of the text keeps: shared_record). */
static void queue_send_as(PGconn *conn, const void *id, const char *sql,
                          int nparams, const char *const *params,
                          db_explain *explain, const long long *facts)
{
    if (queue.count == 0) {
        queue.conn = conn;
        queue.send_failed = PQenterPipelineMode(conn) == 0;
    }
    conn_slot *slot = thread_slot;
    const char *name = NULL;
    if (slot != NULL && conn == slot->conn && nparams > 0) {
        for (int i = 0; name == NULL && i < slot->prepared_count; i++) {
            prepared_statement *p = &slot->prepared[i];
            if (p->sql == id && strcmp(p->text, sql) == 0)
                name = p->name;
        }
        if (name == NULL && slot->prepared_count < DB_PREPARED_MAX) {
            /* Counted as prepared now; forgotten again if the PREPARE
             * fails (drain). */
            prepared_statement *p = &slot->prepared[slot->prepared_count];
            snprintf(p->name, sizeof p->name, "s%d", slot->names_made++);
            if (PQsendPrepare(conn, p->name, sql, nparams, NULL) == 0) {
                queue.send_failed = true; /* drain reports it */
            } else {
                p->sql = id;
                p->text = strdup(sql);
                slot->prepared_count++;
                queue_push(p->name, sql, NULL, facts);
                name = p->name;
            }
        }
    }
    int sent = name != NULL ? PQsendQueryPrepared(conn, name, nparams, params,
                                                  NULL, NULL, 0)
                            : PQsendQueryParams(conn, sql, nparams, NULL,
                                                params, NULL, NULL, 0);
    /* Pushed even when the send failed, so that drain runs and reports
     * the connection as lost. */
    if (sent == 0)
        queue.send_failed = true;
    queue_push("", sql, explain, facts);
}

static void queue_send(PGconn *conn, const char *sql, int nparams,
                       const char *const *params, db_explain *explain,
                       const long long *facts)
{
    queue_send_as(conn, sql, sql, nparams, params, explain, facts);
}

/* Sends a Sync and reads every queued result, then leaves pipeline mode
 * and empties the queue. With mine, the last statement is the caller's
 * own: its result, whatever its status, goes to *own. The first statement
 * that failed comes back in *failure, its queue entry copied to *failed
 * (*failure NULL: none failed). False when the connection was lost or fell
 * out of step with the server (its socket is then shut, so it reads as
 * lost): *failure is then what to report, never NULL. */
static bool pipeline_read(PGconn *conn, bool mine, PGresult **own,
                          PGresult **failure, queued_statement *failed)
{
    int count = queue.count;
    bool lost = queue.send_failed;
    timed_out = false;
    *own = NULL;
    *failure = NULL;
    memset(failed, 0, sizeof *failed);
    if (count > 0)
        *failed = queue.items[count - 1];
    long long deadline = now_ms() + limit_ms();
    if (PQpipelineSync(conn) == 0)
        lost = true;
    int at = 0;
    bool synced = false, failed_seen = false;
    while (!lost && at <= count) {
        PGresult *r = next_result(conn, deadline);
        if (r == NULL) {
            at++; /* the end of one statement's results */
            continue;
        }
        ExecStatusType status = PQresultStatus(r);
        if (status == PGRES_PIPELINE_SYNC) {
            PQclear(r);
            synced = true;
            break;
        }
        bool ok = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
        if (at < count && !ok && queue.items[at].name[0] != '\0')
            forget_name(queue.items[at].name);
        if (PQstatus(conn) != CONNECTION_OK) {
            PQclear(*failure);
            *failure = r;
            lost = true;
        } else if (mine && at == count - 1 &&
                   status != PGRES_PIPELINE_ABORTED && *own == NULL) {
            *own = r;
        } else if (!ok && status != PGRES_PIPELINE_ABORTED && !failed_seen) {
            *failure = r;
            failed_seen = true;
            if (at < count)
                *failed = queue.items[at];
        } else {
            PQclear(r);
        }
    }
    queue.count = 0;
    queue.send_failed = false;
    queue.conn = NULL;
    if (!synced || PQexitPipelineMode(conn) == 0) {
        /* Out of step with the server, or cut off: the connection reads
         * as lost and db_conn makes a new one. */
        if (PQstatus(conn) == CONNECTION_OK)
            shutdown(PQsocket(conn), SHUT_RDWR);
        PQconsumeInput(conn);
        lost = true;
    }
    if (lost) {
        PQclear(*own);
        *own = NULL;
        if (*failure == NULL)
            *failure = PQmakeEmptyPGresult(conn, PGRES_FATAL_ERROR);
        return false;
    }
    return true;
}

/* Reads every queued result (pipeline_read). Returns the caller's own
 * result (mine) or an empty success; NULL with err filled when a statement
 * queued before failed (the transaction is then rolled back and the
 * statement's explain, if any, says what it means to its caller) or the
 * connection was lost (503, as in report_failure). */
static PGresult *drain(PGconn *conn, bool mine, apierr *err)
{
    PGresult *own, *failure;
    queued_statement failed;
    if (!pipeline_read(conn, mine, &own, &failure, &failed)) {
        report_failure(conn, failure, failed.sql, err);
        return NULL;
    }
    if (failure == NULL)
        return own != NULL ? own : PQmakeEmptyPGresult(conn, PGRES_COMMAND_OK);
    PQclear(own);
    char state[6];
    snprintf(state, sizeof state, "%s", db_sqlstate(failure));
    report_failure(conn, failure, failed.sql, err);
    /* The statements after it did not run; nothing of the transaction
     * stands. Its explanation may read again (the head now). */
    if (PQtransactionStatus(conn) != PQTRANS_IDLE)
        PQclear(exec_params(conn, "ROLLBACK", 0, NULL));
    if (failed.explain != NULL && PQstatus(conn) == CONNECTION_OK)
        failed.explain(conn, state, failed.facts, err);
    return NULL;
}

/* ---- shared commits (db.h) ---------------------------------------------
 *
 * A request thread records its transaction's statements, then queues them
 * at its COMMIT. The committer thread runs what waits, as one transaction
 * on its own connection, and commits it; transactions that arrive
 * meanwhile wait together for its next batch. A blocked thread (mail,
 * deadlines) is woken when its transaction is done; an HTTP request,
 * its connection suspended meanwhile, is resumed.
 *
 * Why a committer and not a leader (the first request thread to queue,
 * which ran the batch on its own thread, 2026-11-26 to 11-29): a request
 * that does not block cannot be handed the lead at once; its thread comes
 * back to it only when it is done with its other connections, and every
 * queued move waits meanwhile, while the leader's own thread holds its
 * other connections for as long as it leads (docs/benchmarks.md). */

/* A transaction of more statements goes on alone (shared_spill): a
 * move needs 4 or 5, a sealed decision's end a few more. */
#define SHARED_STATEMENTS_MAX 24

/* One shared commit holds at most this many transactions, and at most
 * as many statements as the committer's pipeline takes: BEGIN, COMMIT,
 * and each statement with the PREPARE it may need on first use. */
#define SHARED_BATCH_MAX 64
#define SHARED_BATCH_STATEMENTS ((DB_QUEUE_MAX - 2) / 2)

typedef struct recorded_statement {
    const void *id; /* the caller's address for the text (queue_send_as) */
    char *sql;
    int nparams;
    char **params;
    db_explain *explain;
    long long facts[2];
} recorded_statement;

/* One request's shared transaction: recorded by its thread, then run by
 * the committer while it waits, blocked on wake or (db_commit_queue) with
 * its connection set aside until waiter.ready. */
struct db_shared {
    long long order_key;
    long long arrival;
    recorded_statement items[SHARED_STATEMENTS_MAX];
    int count;
    /* The outcome, written by the committer before done. */
    bool done;
    bool committed;
    int failed_item; /* the recorded statement that failed, or -1 */
    char sqlstate[6];
    apierr err;
    pthread_cond_t *wake; /* a blocked thread's; NULL: waiter's ready */
    db_waiter waiter;
    struct db_shared *next;
};
typedef struct db_shared shared_tx;

/* The transaction this thread records, and the connection it records for
 * (none: NULL). Only its recording is per thread: once queued, a
 * transaction is its request's, whichever thread finishes it. */
static __thread shared_tx *recording;
static __thread PGconn *recording_conn;
/* What this thread blocks on while its transaction waits (shared_commit). */
static __thread pthread_cond_t blocked;
static __thread bool blocked_made;

static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static shared_tx *waiting_first, *waiting_last;
static long long arrivals, commits_made, transactions_made;
/* Transactions queued and not yet in a batch. */
static int waiting_count;

static void forget_items(shared_tx *tx)
{
    for (int i = 0; i < tx->count; i++) {
        recorded_statement *s = &tx->items[i];
        for (int p = 0; p < s->nparams; p++)
            free(s->params[p]);
        free(s->params);
        free(s->sql);
    }
    tx->count = 0;
}

static void shared_free(shared_tx *tx)
{
    if (tx == NULL)
        return;
    forget_items(tx);
    free(tx);
}

static char *copy_text(const char *text)
{
    if (text == NULL)
        return NULL;
    char *copy = strdup(text);
    if (copy == NULL)
        abort();
    return copy;
}

static bool shared_begin(PGconn *conn, long long order_key)
{
    shared_free(recording);
    /* Not calloc: items are written as they are recorded. None is kept
     * for the next: libmicrohttpd's threads end without a hook to free
     * it. */
    recording = malloc(sizeof *recording);
    if (recording == NULL)
        abort();
    recording->count = 0;
    recording_conn = conn;
    recording->order_key = order_key;
    return true;
}

static bool shared_recording(const PGconn *conn)
{
    return recording_conn != NULL && recording_conn == conn;
}

/* Ends the recording: the transaction is no longer this thread's. */
static shared_tx *shared_detach(void)
{
    shared_tx *tx = recording;
    recording = NULL;
    recording_conn = NULL;
    return tx;
}

static void shared_drop(void)
{
    shared_free(shared_detach());
}

static void shared_spill(PGconn *conn)
{
    recording_conn = NULL;
    apierr ignored;
    /* Idle with nothing queued, so the BEGIN is queued and cannot fail. */
    db_begin(conn, &ignored);
    for (int i = 0; i < recording->count; i++) {
        recorded_statement *s = &recording->items[i];
        queue_send_as(conn, s->id, s->sql, s->nparams,
                      (const char *const *)s->params, s->explain, s->facts);
    }
    shared_free(shared_detach());
}

static bool shared_record(PGconn *conn, const void *id, const char *sql,
                          int nparams, const char *const *params,
                          db_explain *explain, const long long facts[2],
                          apierr *err)
{
    if (recording->count == SHARED_STATEMENTS_MAX) {
        shared_spill(conn);
        return db_queue(conn, sql, nparams, params, explain, facts, err);
    }
    recorded_statement *s = &recording->items[recording->count++];
    s->id = id;
    s->sql = copy_text(sql);
    s->nparams = nparams;
    s->params = nparams > 0 ? calloc((size_t)nparams, sizeof *s->params) : NULL;
    if (nparams > 0 && s->params == NULL)
        abort();
    for (int p = 0; p < nparams; p++)
        s->params[p] = copy_text(params[p]);
    s->explain = explain;
    s->facts[0] = facts ? facts[0] : 0;
    s->facts[1] = facts ? facts[1] : 0;
    return true;
}

/* ---- the committer ---------------------------------------------------- */

static int by_order(const void *a, const void *b)
{
    const shared_tx *x = *(shared_tx *const *)a;
    const shared_tx *y = *(shared_tx *const *)b;
    if (x->order_key != y->order_key)
        return x->order_key < y->order_key ? -1 : 1;
    return x->arrival < y->arrival ? -1 : x->arrival > y->arrival;
}

static void fail(shared_tx *tx, int failed_item, const char *sqlstate,
                 const apierr *err)
{
    tx->committed = false;
    tx->failed_item = failed_item;
    snprintf(tx->sqlstate, sizeof tx->sqlstate, "%s", sqlstate);
    tx->err = *err;
}

/* Runs batch (in lock order) on conn, the committer's connection, as one
 * transaction until it commits: a statement that fails fails its own
 * transaction, which is left out, and the rest are run again from BEGIN.
 * A lost connection, or a failure that is no one transaction's (the
 * COMMIT), fails every one still in. With no connection (NULL: the
 * committer's could not be made, unavailable says why) every one fails. */
static void run_batch(PGconn *conn, shared_tx **batch, int n,
                      const apierr *unavailable)
{
    for (int i = 0; i < n; i++)
        batch[i]->committed = conn != NULL;
    if (conn == NULL) {
        for (int i = 0; i < n; i++)
            fail(batch[i], -1, "", unavailable);
        return;
    }
    static const long long no_transaction[2] = {-1, -1};
    for (int left = n; left > 0; left--) {
        queue_send_as(conn, "BEGIN", "BEGIN", 0, NULL, NULL, no_transaction);
        for (int i = 0; i < n; i++) {
            shared_tx *tx = batch[i];
            for (int k = 0; tx->committed && k < tx->count; k++) {
                const recorded_statement *s = &tx->items[k];
                const long long where[2] = {i, k};
                queue_send_as(conn, s->id, s->sql, s->nparams,
                              (const char *const *)s->params, NULL, where);
            }
        }
        queue_send_as(conn, "COMMIT", "COMMIT", 0, NULL, NULL, no_transaction);
        PGresult *own, *failure;
        queued_statement failed_entry;
        bool lost = !pipeline_read(conn, false, &own, &failure, &failed_entry);
        PQclear(own);
        if (failure == NULL)
            return;
        char sqlstate[6];
        snprintf(sqlstate, sizeof sqlstate, "%s", db_sqlstate(failure));
        apierr failed;
        memset(&failed, 0, sizeof failed);
        failed.head = -1;
        report_failure(conn, failure, failed_entry.sql, &failed);
        if (!lost && PQtransactionStatus(conn) != PQTRANS_IDLE)
            PQclear(exec_params(conn, "ROLLBACK", 0, NULL));
        long long culprit = lost ? -1 : failed_entry.facts[0];
        if (culprit < 0 || culprit >= n || !batch[culprit]->committed) {
            for (int i = 0; i < n; i++)
                if (batch[i]->committed)
                    fail(batch[i], -1, sqlstate, &failed);
            return;
        }
        fail(batch[culprit], (int)failed_entry.facts[1], sqlstate, &failed);
    }
}

/* Tells tx, with shared_lock held, that it is done: a blocked thread is
 * woken at once; a request set aside is added to *later, to be told
 * (waiter.ready) once the lock is let go, since its request may go on
 * (and free tx) as soon as it is told. */
static void tell(shared_tx *tx, shared_tx **later, int *later_count)
{
    if (tx->wake != NULL)
        pthread_cond_signal(tx->wake);
    else
        later[(*later_count)++] = tx;
}

static pthread_cond_t committer_wake = PTHREAD_COND_INITIALIZER;
static bool committer_started, committer_idle;

/* The committer: runs batches from the head of the queue, each as one
 * transaction on its own connection, for as long as the process lives. */
static void *commit_batches(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&shared_lock);
    for (;;) {
        while (waiting_first == NULL) {
            committer_idle = true;
            pthread_cond_wait(&committer_wake, &shared_lock);
        }
        committer_idle = false;
        /* Everything that arrived while the last commit ran, up to one
         * batch: that wait is what groups them. The first always goes (no
         * transaction has more than SHARED_STATEMENTS_MAX statements). */
        shared_tx *batch[SHARED_BATCH_MAX];
        int n = 0, statements = 0;
        do {
            statements += waiting_first->count;
            batch[n++] = waiting_first;
            waiting_first = waiting_first->next;
            waiting_count--;
        } while (waiting_first != NULL && n < SHARED_BATCH_MAX &&
                 statements + waiting_first->count <= SHARED_BATCH_STATEMENTS);
        if (waiting_first == NULL)
            waiting_last = NULL;
        pthread_mutex_unlock(&shared_lock);
        qsort(batch, (size_t)n, sizeof batch[0], by_order);
        apierr unavailable = {.head = -1};
        run_batch(db_conn(&unavailable), batch, n, &unavailable);
        pthread_mutex_lock(&shared_lock);
        commits_made++;
        transactions_made += n;
        metrics_shared_commit(n);
        shared_tx *later[SHARED_BATCH_MAX];
        int later_count = 0;
        for (int i = 0; i < n; i++) {
            batch[i]->done = true;
            tell(batch[i], later, &later_count);
        }
        pthread_mutex_unlock(&shared_lock);
        for (int i = 0; i < later_count; i++)
            later[i]->waiter.ready(later[i]->waiter.context);
        pthread_mutex_lock(&shared_lock);
    }
    return NULL;
}

/* Queues tx for the committer, with shared_lock held. */
static void enqueue(shared_tx *tx)
{
    tx->done = false;
    tx->next = NULL;
    tx->arrival = arrivals++;
    waiting_count++;
    if (waiting_last != NULL)
        waiting_last->next = tx;
    else
        waiting_first = tx;
    waiting_last = tx;
    if (!committer_started) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, commit_batches, NULL) != 0)
            abort();
        pthread_detach(thread);
        committer_started = true;
    } else if (committer_idle) {
        pthread_cond_signal(&committer_wake);
    }
}

/* tx's outcome, once done: its failure given its meaning on conn (the
 * request's thread's, which may read), then tx freed. */
static bool outcome(shared_tx *tx, PGconn *conn, apierr *err)
{
    bool ok = tx->committed;
    if (!ok) {
        *err = tx->err;
        if (tx->failed_item >= 0 && tx->failed_item < tx->count) {
            const recorded_statement *s = &tx->items[tx->failed_item];
            if (s->explain != NULL && conn != NULL &&
                PQstatus(conn) == CONNECTION_OK)
                s->explain(conn, tx->sqlstate, s->facts, err);
        }
    }
    shared_free(tx);
    return ok;
}

static bool shared_commit(PGconn *conn, apierr *err)
{
    shared_tx *tx = shared_detach();
    if (tx->count == 0) {
        shared_free(tx);
        return true;
    }
    if (!blocked_made) {
        pthread_cond_init(&blocked, NULL);
        blocked_made = true;
    }
    tx->wake = &blocked;
    pthread_mutex_lock(&shared_lock);
    enqueue(tx);
    while (!tx->done)
        pthread_cond_wait(&blocked, &shared_lock);
    pthread_mutex_unlock(&shared_lock);
    return outcome(tx, conn, err);
}

int db_commit_queue(PGconn *conn, const db_waiter *waiter, db_shared **queued,
                    apierr *err)
{
    *queued = NULL;
    if (waiter == NULL || !shared_recording(conn))
        return db_command(conn, "COMMIT", 0, NULL, err) ? DB_COMMITTED
                                                        : DB_FAILED;
    shared_tx *tx = shared_detach();
    if (tx->count == 0) {
        shared_free(tx);
        return DB_COMMITTED;
    }
    tx->wake = NULL;
    tx->waiter = *waiter;
    pthread_mutex_lock(&shared_lock);
    /* Set aside before it can be told: a request is never told before
     * its connection is suspended. */
    waiter->suspend(waiter->context);
    enqueue(tx);
    pthread_mutex_unlock(&shared_lock);
    metrics_shared_commit_set_aside();
    *queued = tx;
    return DB_QUEUED;
}

bool db_commit_outcome(db_shared *tx, apierr *err)
{
    apierr unavailable = {.head = -1};
    return outcome(tx, db_conn(&unavailable), err);
}

void db_shared_stats(db_shared_figures *figures)
{
    pthread_mutex_lock(&shared_lock);
    figures->commits = commits_made;
    figures->transactions = transactions_made;
    figures->waiting = waiting_count;
    pthread_mutex_unlock(&shared_lock);
}

/* Runs a statement that needs its result: after what is queued, if
 * anything is. */
static PGresult *run_now(PGconn *conn, const char *sql, int nparams,
                         const char *const *params, apierr *err)
{
    if (!queue_open(conn))
        return run(conn, sql, nparams, params);
    if (queue.count + 2 > DB_QUEUE_MAX) {
        PGresult *before = drain(conn, false, err);
        if (before == NULL)
            return NULL;
        PQclear(before);
        return run(conn, sql, nparams, params);
    }
    queue_send(conn, sql, nparams, params, NULL, NULL);
    return drain(conn, true, err);
}

bool db_queue(PGconn *conn, const char *sql, int nparams,
              const char *const *params, db_explain *explain,
              const long long facts[2], apierr *err)
{
    if (shared_recording(conn))
        return shared_record(conn, sql, sql, nparams, params, explain, facts,
                             err);
    bool in_transaction =
        queue_open(conn) ||
        (queue.count == 0 && PQtransactionStatus(conn) == PQTRANS_INTRANS);
    if (in_transaction && queue.count + 2 <= DB_QUEUE_MAX) {
        queue_send(conn, sql, nparams, params, explain, facts);
        return true;
    }
    /* Not in a transaction (or the queue is full): at once, with the same
     * meaning given to a failure. */
    PGresult *result = run_now(conn, sql, nparams, params, err);
    if (result == NULL)
        return false;
    ExecStatusType status = PQresultStatus(result);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
        PQclear(result);
        return true;
    }
    char state[6];
    snprintf(state, sizeof state, "%s", db_sqlstate(result));
    report_failure(conn, result, sql, err);
    if (explain != NULL && PQstatus(conn) == CONNECTION_OK)
        explain(conn, state, facts, err);
    return false;
}

bool db_begin(PGconn *conn, apierr *err)
{
    /* Inside a shared transaction: as PostgreSQL takes a BEGIN inside a
     * transaction (a warning), it goes on, as an ordinary one. */
    if (shared_recording(conn))
        shared_spill(conn);
    if (queue.count == 0 && PQtransactionStatus(conn) == PQTRANS_IDLE) {
        queue_send(conn, "BEGIN", 0, NULL, NULL, NULL);
        return true;
    }
    return db_command(conn, "BEGIN", 0, NULL, err);
}

bool db_begin_shared(PGconn *conn, long long order_key, apierr *err)
{
    if (queue.count == 0 && PQtransactionStatus(conn) == PQTRANS_IDLE &&
        !shared_recording(conn))
        return shared_begin(conn, order_key);
    return db_begin(conn, err);
}

bool db_in_transaction(PGconn *conn)
{
    return shared_recording(conn) || queue_open(conn) ||
           PQtransactionStatus(conn) != PQTRANS_IDLE;
}

void db_rollback(PGconn *conn)
{
    if (shared_recording(conn)) {
        shared_drop();
        return;
    }
    if (queue_open(conn)) {
        apierr ignored;
        PQclear(drain(conn, false, &ignored));
    }
    if (PQtransactionStatus(conn) != PQTRANS_IDLE)
        PQclear(exec_params(conn, "ROLLBACK", 0, NULL));
}

PGresult *db_query(PGconn *conn, const char *sql, int nparams,
                   const char *const *params, ExecStatusType expected,
                   apierr *err)
{
    /* A read inside a shared transaction needs the transaction's own
     * writes and locks: it goes on as an ordinary one. */
    if (shared_recording(conn))
        shared_spill(conn);
    PGresult *result = run_now(conn, sql, nparams, params, err);
    if (result == NULL)
        return NULL;
    if (PQresultStatus(result) == expected)
        return result;
    report_failure(conn, result, sql, err);
    return NULL;
}

bool db_command(PGconn *conn, const char *sql, int nparams,
                const char *const *params, apierr *err)
{
    /* In a shared transaction a command is recorded like a queued
     * statement, and the COMMIT queues them all for a shared commit. */
    if (shared_recording(conn))
        return strcmp(sql, "COMMIT") == 0
                   ? shared_commit(conn, err)
                   : shared_record(conn, sql, sql, nparams, params, NULL, NULL,
                                   err);
    PGresult *result = run_now(conn, sql, nparams, params, err);
    if (result == NULL)
        return false;
    ExecStatusType status = PQresultStatus(result);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
        PQclear(result);
        return true;
    }
    report_failure(conn, result, sql, err);
    return false;
}

bool db_wait_replicated(PGconn *conn, apierr *err)
{
    if (db_in_transaction(conn))
        return apierr_set(err, 500, "internal",
                          "db_wait_replicated inside a transaction");
    return db_command(conn, WRITE_TO_THE_LOG, 0, NULL, err);
}

const char *db_sqlstate(const PGresult *result)
{
    const char *state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
    return state ? state : "";
}

void db_set_timeout(int milliseconds)
{
    if (milliseconds > 0)
        timeout_ms = milliseconds;
}

bool db_ping(int milliseconds, apierr *err)
{
    thread_timeout_ms = milliseconds;
    PGconn *conn = db_conn(err);
    bool ok = conn != NULL && db_command(conn, "SELECT 1", 0, NULL, err);
    thread_timeout_ms = 0;
    return ok;
}
