/* main.c: pbemd, the turn service.
 *   pbemd            apply migrations, then serve until SIGTERM/SIGINT
 *   pbemd migrate    apply migrations and exit
 * Environment: DATABASE_URL (required), PBEM_LISTEN (127.0.0.1:8080),
 * PBEM_KEY_FILE (var/service.key), PBEM_MIGRATIONS (migrations),
 * PBEM_THREADS (8), PBEM_QUIET (1: warnings and errors only),
 * PBEM_DB_TIMEOUT_MS (10000: the longest wait on PostgreSQL); the outbox
 * worker's and mail's variables are in notify.h and mail.h, the deadline
 * worker's in deadline_worker.h, the IMAP worker's (PBEM_IMAP_URL…) in
 * imap_config.h, the test clock (PBEM_CLOCK_FILE) in clock.h. */
#include <curl/curl.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "store/db.h"
#include "timers/deadline_worker.h"
#include "http/http.h"
#include "core/log.h"
#include "store/migrate.h"
#include "notify/notify.h"
#include "mailin/imap_config.h"
#include "mailin/mailin.h"
#include "ledger/seal.h"
#include "streams/streams_hub.h"

static const char *env_or(const char *name, const char *fallback)
{
    const char *value = getenv(name);
    return value && value[0] ? value : fallback;
}

static int fail(const apierr *err)
{
    fprintf(stderr, "pbemd: %s\n", err->message);
    return 1;
}

int main(int argc, char **argv)
{
    bool migrate_only = argc > 1 && strcmp(argv[1], "migrate") == 0;
    if (argc > 1 && !migrate_only) {
        fprintf(stderr, "usage: pbemd [migrate]\n");
        return 2;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "pbemd: libsodium could not initialise\n");
        return 1;
    }
    /* libcurl must be initialised before any thread starts. */
    curl_global_init(CURL_GLOBAL_DEFAULT);
    log_set_quiet(strcmp(env_or("PBEM_QUIET", "0"), "1") == 0);
    const char *url = getenv("DATABASE_URL");
    if (url == NULL || url[0] == '\0') {
        fprintf(stderr, "pbemd: DATABASE_URL is not set; `make run` sets it "
                        "to a private PostgreSQL, or export it yourself\n");
        return 1;
    }
    apierr err;
    db_set_timeout(atoi(env_or("PBEM_DB_TIMEOUT_MS", "10000")));
    if (!clock_init(&err) || !db_init(url, &err))
        return fail(&err);
    PGconn *conn = db_conn(&err);
    int applied = 0;
    if (conn == NULL ||
        !migrate_apply(conn, env_or("PBEM_MIGRATIONS", "migrations"), &applied,
                       &err))
        return fail(&err);
    db_close_thread();
    if (migrate_only) {
        log_info("migrations: %d applied, database up to date", applied);
        return 0;
    }
    if (!seal_load_key(env_or("PBEM_KEY_FILE", "var/service.key"), &err))
        return fail(&err);

    /* Block the stop signals in every thread; main waits for them. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);

    /* A bad IMAP setting stops the start, before anything is served. */
    imap_config imap;
    bool reads_mail = imap_configured();
    if (reads_mail && !imap_config_from_env(&imap, &err))
        return fail(&err);

    /* Event streams' LISTEN connection, before any stream can open. */
    if (!streams_hub_start(&err))
        return fail(&err);
    const char *listen = env_or("PBEM_LISTEN", "127.0.0.1:8080");
    int threads = atoi(env_or("PBEM_THREADS", "8"));
    http_server *server = http_start(listen, threads > 0 ? threads : 8, &err);
    if (server == NULL)
        return fail(&err);
    notify_worker *notifier = NULL;
    if (strcmp(env_or("PBEM_NOTIFY", "1"), "0") != 0) {
        notify_config config;
        notify_config_from_env(&config);
        notifier = notify_start(&config, &err);
        if (notifier == NULL) {
            http_stop(server, 0);
            return fail(&err);
        }
    }
    deadline_worker *deadlines = NULL;
    if (strcmp(env_or("PBEM_DEADLINES", "1"), "0") != 0) {
        deadlines = deadline_worker_start(
            atoi(env_or("PBEM_DEADLINE_POLL_MS", "10000")),
            atoi(env_or("PBEM_DEADLINE_BATCH", "16")), &err);
        if (deadlines == NULL) {
            notify_stop(notifier);
            http_stop(server, 0);
            return fail(&err);
        }
    }
    imap_worker *mail_reader = NULL;
    if (reads_mail) {
        mail_reader = imap_worker_start(&imap, mailin_from_imap, NULL, &err);
        explicit_bzero(&imap, sizeof imap); /* the password */
        if (mail_reader == NULL) {
            deadline_worker_stop(deadlines);
            notify_stop(notifier);
            http_stop(server, 0);
            return fail(&err);
        }
    }
    char host[64];
    snprintf(host, sizeof host, "%.*s", (int)(strrchr(listen, ':') - listen),
             listen);
    /* Tests read this line to learn the port. */
    printf("pbemd: serving on http://%s:%d/ (stop with Ctrl-C or SIGTERM)\n",
           host, http_port(server));
    fflush(stdout);
    int signal_number = 0;
    sigwait(&stop, &signal_number);
    log_info("received %s: finishing in-flight requests",
             signal_number == SIGTERM ? "SIGTERM" : "SIGINT");
    http_stop(server, 30);
    streams_hub_stop();
    imap_worker_stop(mail_reader);
    deadline_worker_stop(deadlines);
    notify_stop(notifier);
    db_shutdown();
    curl_global_cleanup();
    log_info("stopped");
    return 0;
}
