/* main.c: pbemd, the turn service.
 *   pbemd                    apply migrations, then serve until
 *                            SIGTERM/SIGINT
 *   pbemd migrate            apply migrations and exit
 *   pbemd config             print the configuration in effect and exit
 *   pbemd config --markdown  print docs/configuration.md and exit
 * Every environment variable it reads is in core/config.h's table
 * (docs/configuration.md); a bad value stops it before anything else. */
#include <curl/curl.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/config.h"
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

static int fail(const apierr *err)
{
    fprintf(stderr, "pbemd: %s\n", err->message);
    return 1;
}

int main(int argc, char **argv)
{
    /* The documentation of the table needs no environment at all. */
    if (argc == 3 && strcmp(argv[1], "config") == 0 &&
        strcmp(argv[2], "--markdown") == 0) {
        config_markdown(stdout);
        return 0;
    }
    bool migrate_only = argc == 2 && strcmp(argv[1], "migrate") == 0;
    bool show_config = argc == 2 && strcmp(argv[1], "config") == 0;
    if (argc > 1 && !migrate_only && !show_config) {
        fprintf(stderr, "usage: pbemd [migrate | config [--markdown]]\n");
        return 2;
    }
    apierr err;
    if (!config_load(&err))
        return fail(&err);
    if (show_config) {
        config_print(stdout);
        return 0;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "pbemd: libsodium could not initialise\n");
        return 1;
    }
    /* libcurl must be initialised before any thread starts. */
    curl_global_init(CURL_GLOBAL_DEFAULT);
    log_set_quiet(config_flag(CONFIG_QUIET));
    const char *url = config_text(CONFIG_DATABASE_URL);
    if (url == NULL) {
        fprintf(stderr, "pbemd: DATABASE_URL is not set; `make run` sets it "
                        "to a private PostgreSQL, or export it yourself\n");
        return 1;
    }
    db_set_timeout((int)config_whole(CONFIG_DB_TIMEOUT_MS));
    if (!clock_init(&err) || !db_init(url, &err))
        return fail(&err);
    PGconn *conn = db_conn(&err);
    int applied = 0;
    if (conn == NULL ||
        !migrate_apply(conn, config_text(CONFIG_MIGRATIONS), &applied, &err))
        return fail(&err);
    db_close_thread();
    if (migrate_only) {
        log_info("migrations: %d applied, database up to date", applied);
        return 0;
    }
    if (!seal_load_key(config_text(CONFIG_KEY_FILE), &err))
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
    const char *listen = config_text(CONFIG_LISTEN);
    http_server *server =
        http_start(listen, (int)config_whole(CONFIG_THREADS), &err);
    if (server == NULL)
        return fail(&err);
    notify_worker *notifier = NULL;
    if (config_flag(CONFIG_NOTIFY)) {
        notify_config config;
        notify_config_from_env(&config);
        notifier = notify_start(&config, &err);
        if (notifier == NULL) {
            http_stop(server, 0);
            return fail(&err);
        }
    }
    deadline_worker *deadlines = NULL;
    if (config_flag(CONFIG_DEADLINES)) {
        deadlines = deadline_worker_start(
            (int)config_whole(CONFIG_DEADLINE_POLL_MS),
            (int)config_whole(CONFIG_DEADLINE_BATCH), &err);
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
