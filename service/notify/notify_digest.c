/* notify_digest.c */
#include "notify/notify_digest.h"

#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/db.h"
#include "store/db_params.h"
#include "store/outbox.h"
#include "core/log.h"
#include "notify/mail.h"
#include "notify/notify_outbox.h"

#define DIGEST_PLAYERS 4
#define DIGEST_ROWS 200

/* Records one attempt on every row the digest covered. */
static void record_all(PGconn *conn, const notify_config *config,
                       const PGresult *rows, bool sent, long code,
                       long long duration_ms, const char *error)
{
    for (int i = 0; i < PQntuples(rows); i++) {
        int attempt = atoi(PQgetvalue(rows, i, 3)) + 1;
        long long delay;
        const char *status =
            notify_after_attempt(config, attempt, sent, false, 0, &delay);
        apierr err;
        if (!store_outbox_record_attempt(
                conn, atoll(PQgetvalue(rows, i, 0)),
                atoll(PQgetvalue(rows, i, 1)), attempt, duration_ms,
                sent ? "sent" : "failed", code, error, status, delay, &err))
            log_error("digest row %s/%s: its attempt could not be recorded; it "
                      "will be retried when its lease runs out",
                      PQgetvalue(rows, i, 0), PQgetvalue(rows, i, 1));
    }
}

/* The payloads of rows (ordered by match, then seq), the latest per match. */
static json_t *latest_per_match(const PGresult *rows)
{
    json_t *matches = json_array();
    for (int i = 0; i < PQntuples(rows); i++) {
        bool last_of_match = i + 1 == PQntuples(rows) ||
                             strcmp(PQgetvalue(rows, i, 0),
                                    PQgetvalue(rows, i + 1, 0)) != 0;
        if (!last_of_match)
            continue;
        json_t *payload = json_loads(PQgetvalue(rows, i, 2), 0, NULL);
        if (payload != NULL)
            json_array_append_new(matches, payload);
    }
    return matches;
}

/* Claims, sends and records one player's digest. */
static bool send_one(PGconn *conn, const notify_config *config,
                     const char *player)
{
    apierr err;
    PGresult *rows = store_outbox_claim_digest(conn, player, DIGEST_ROWS,
                                               config->lease_seconds, &err);
    if (rows == NULL)
        return false;
    if (PQntuples(rows) == 0) {
        PQclear(rows);
        return true;
    }
    db_params who_params = {0};
    db_params_text(&who_params, player);
    PGresult *who = db_query(conn,
                             "SELECT name, email FROM players WHERE player_id = $1",
                             who_params.count, who_params.values,
                             PGRES_TUPLES_OK, &err);
    if (who == NULL || PQntuples(who) != 1 || PQgetisnull(who, 0, 1)) {
        record_all(conn, config, rows, false, 0, 0,
                   "the player has no email address any more");
        PQclear(who);
        PQclear(rows);
        return true;
    }
    /* Stable across retries: named after the first row it covers. */
    char id[64], ref[48];
    notify_outbox_ref(atoll(PQgetvalue(rows, 0, 0)), atoll(PQgetvalue(rows, 0, 1)),
                      ref);
    snprintf(id, sizeof id, "digest-%s", ref);
    json_t *payload = json_pack("{s:o}", "matches", latest_per_match(rows));
    char address[256], why[256] = "";
    snprintf(address, sizeof address, "%s", PQgetvalue(who, 0, 1));
    /* About several matches: an answer speaks for the player's account. */
    char reply_to[MAIL_ADDRESS_MAX];
    mail_reply_address(REPLY_TOKEN_ACCOUNT, atoll(player), 0, -1, reply_to);
    mail_notification n = {
        .id = id,
        .reason = "digest",
        .player_id = atoll(player),
        .to_name = PQgetvalue(who, 0, 0),
        .to_address = address,
        .payload = payload,
        .date = (long long)time(NULL),
        .reply_to = reply_to[0] ? reply_to : NULL,
    };
    char *message = mail_compose(&n, why);
    json_decref(payload);
    PQclear(who);
    if (message == NULL) {
        record_all(conn, config, rows, false, 0, 0, why);
        PQclear(rows);
        return true;
    }
    mail_upload upload = {.data = message, .len = strlen(message)};
    struct curl_slist *recipients = NULL;
    CURL *easy = curl_easy_init();
    char errbuf[CURL_ERROR_SIZE] = "";
    struct timespec started, ended;
    clock_gettime(CLOCK_MONOTONIC, &started);
    CURLcode rc = CURLE_FAILED_INIT;
    if (easy != NULL &&
        mail_prepare(easy, address, &upload, &recipients,
                     config->timeout_seconds) &&
        curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, errbuf) == CURLE_OK)
        rc = curl_easy_perform(easy);
    clock_gettime(CLOCK_MONOTONIC, &ended);
    long long duration = (ended.tv_sec - started.tv_sec) * 1000LL +
                         (ended.tv_nsec - started.tv_nsec) / 1000000;
    long code = 0;
    if (easy != NULL)
        curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &code);
    char error[320] = "";
    if (rc != CURLE_OK)
        snprintf(error, sizeof error, "%s%s%s", curl_easy_strerror(rc),
                 errbuf[0] ? ": " : "", errbuf);
    record_all(conn, config, rows, rc == CURLE_OK, code, duration,
               rc == CURLE_OK ? NULL : error);
    if (rc == CURLE_OK)
        log_info("digest %s sent to player %s (%d notifications)", id, player,
                 PQntuples(rows));
    else
        log_warn("digest %s: %s", id, error);
    curl_slist_free_all(recipients);
    if (easy != NULL)
        curl_easy_cleanup(easy);
    free(message);
    PQclear(rows);
    return true;
}

int notify_digest_send(PGconn *conn, const notify_config *config)
{
    apierr err;
    PGresult *players =
        store_outbox_digest_players(conn, DIGEST_PLAYERS, &err);
    if (players == NULL)
        return -1;
    int sent = 0;
    for (int i = 0; i < PQntuples(players) && i < DIGEST_PLAYERS; i++) {
        if (!send_one(conn, config, PQgetvalue(players, i, 0))) {
            sent = -1;
            break;
        }
        sent++;
    }
    PQclear(players);
    return sent;
}
