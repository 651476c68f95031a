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
#include "store/players.h"
#include "core/log.h"
#include "notify/delivery.h"
#include "notify/mail.h"
#include "notify/notify_outbox.h"
#include "notify/table_talk.h"

#define DIGEST_PLAYERS 4
#define DIGEST_ROWS 200

/* One player's digest on its way out: the rows it covers and its mail. */
typedef struct digest_job {
    delivery delivery; /* first: delivery_run hands it back */
    PGconn *conn;
    const notify_config *config;
    const char *player;
    PGresult *rows; /* STORE_OUTBOX_DIGEST_… columns */
    char id[64];
    char *message;
    mail_upload upload;
    struct curl_slist *recipients;
} digest_job;

/* Records one attempt on every row the digest covered. */
static void record_all(const digest_job *j, bool sent)
{
    const delivery *d = &j->delivery;
    const PGresult *rows = j->rows;
    for (int i = 0; i < PQntuples(rows); i++) {
        int attempt =
            atoi(PQgetvalue(rows, i, STORE_OUTBOX_DIGEST_ATTEMPTS)) + 1;
        long long delay;
        const char *status =
            notify_after_attempt(j->config, attempt, sent, false, 0, &delay);
        apierr err;
        if (!store_outbox_record_attempt(
                j->conn, atoll(PQgetvalue(rows, i, STORE_OUTBOX_DIGEST_MATCH)),
                atoll(PQgetvalue(rows, i, STORE_OUTBOX_DIGEST_ID)), attempt,
                d->duration_ms, sent ? "sent" : "failed", d->code,
                sent ? NULL : d->error, status, delay, &err))
            log_error("digest row %s/%s: its attempt could not be recorded; it "
                      "will be retried when its lease runs out",
                      PQgetvalue(rows, i, STORE_OUTBOX_DIGEST_MATCH),
                      PQgetvalue(rows, i, STORE_OUTBOX_DIGEST_ID));
    }
}

static void record(delivery *d, void *context)
{
    (void)context;
    const digest_job *j = (const digest_job *)d;
    bool sent = strcmp(d->outcome, "sent") == 0;
    record_all(j, sent);
    if (j->message == NULL)
        return; /* not sent at all: no mail to speak of */
    if (sent)
        log_info("digest %s sent to player %s (%d notifications)", j->id,
                 j->player, PQntuples(j->rows));
    else
        log_warn("digest %s: %s", j->id, d->error);
}

/* A digest cut short by a stop: its rows due again now, no attempt. */
static void release(delivery *d, void *context)
{
    (void)context;
    const digest_job *j = (const digest_job *)d;
    for (int i = 0; i < PQntuples(j->rows); i++) {
        apierr err;
        store_outbox_release(
            j->conn, atoll(PQgetvalue(j->rows, i, STORE_OUTBOX_DIGEST_MATCH)),
            atoll(PQgetvalue(j->rows, i, STORE_OUTBOX_DIGEST_ID)), &err);
    }
}

static const delivery_kind digest_delivery = {
    .judge = delivery_judge_transfer,
    .record = record,
    .release = release,
};

/* The talk at the table of the match payload is about that player has
 * not had by mail (table_talk.h), added to payload as "table_talk"; the
 * last message it holds into *through (0: none). The digest goes out
 * without it when the database cannot tell. */
static void add_talk(PGconn *conn, long long match_id, long long player_id,
                     json_t *payload, long long *through)
{
    apierr err;
    char *talk =
        table_talk_unmailed(conn, match_id, player_id, through, &err);
    if (talk == NULL)
        log_warn("match m_%lld: the digest of player %lld goes without the "
                 "talk at the table: %s",
                 match_id, player_id, err.message);
    else if (talk[0] != '\0')
        json_object_set_new(payload, "table_talk", json_string(talk));
    free(talk);
}

/* The payloads of rows (ordered by match, then seq), the latest per match,
 * each with its unmailed talk, whose last message per match goes into
 * talk_through (one slot per row). */
static json_t *latest_per_match(const digest_job *j, long long *talk_through)
{
    const PGresult *rows = j->rows;
    json_t *matches = json_array();
    for (int i = 0; i < PQntuples(rows); i++) {
        bool last_of_match =
            i + 1 == PQntuples(rows) ||
            strcmp(PQgetvalue(rows, i, STORE_OUTBOX_DIGEST_MATCH),
                   PQgetvalue(rows, i + 1, STORE_OUTBOX_DIGEST_MATCH)) != 0;
        if (!last_of_match)
            continue;
        json_t *payload = json_loads(
            PQgetvalue(rows, i, STORE_OUTBOX_DIGEST_PAYLOAD), 0, NULL);
        if (payload == NULL)
            continue;
        add_talk(j->conn, atoll(PQgetvalue(rows, i, STORE_OUTBOX_DIGEST_MATCH)),
                 atoll(j->player), payload, &talk_through[i]);
        json_array_append_new(matches, payload);
    }
    return matches;
}

/* Writes j's mail and sets up its transfer; j is finished instead when
 * the player has no address any more or the mail cannot be written.
 * False when libcurl refused. */
static bool prepare(digest_job *j)
{
    apierr err;
    store_player who;
    if (!store_player_load(j->conn, atoll(j->player), false, &who, &err) ||
        who.email[0] == '\0') {
        delivery_finish(&j->delivery, "failed", false, 0,
                        "the player has no email address any more");
        return true;
    }
    /* Stable across retries: named after the first row it covers. */
    char ref[48];
    notify_outbox_ref(
        atoll(PQgetvalue(j->rows, 0, STORE_OUTBOX_DIGEST_MATCH)),
        atoll(PQgetvalue(j->rows, 0, STORE_OUTBOX_DIGEST_ID)), ref);
    snprintf(j->id, sizeof j->id, "digest-%s", ref);
    long long *talk_through =
        calloc((size_t)PQntuples(j->rows) + 1, sizeof *talk_through);
    if (talk_through == NULL)
        abort();
    json_t *payload =
        json_pack("{s:o}", "matches", latest_per_match(j, talk_through));
    const char *address = who.email;
    char why[256] = "";
    /* About several matches: an answer speaks for the player's account. */
    char reply_to[MAIL_ADDRESS_MAX];
    mail_reply_address(REPLY_TOKEN_ACCOUNT, atoll(j->player), 0, -1,
                       reply_to);
    mail_notification n = {
        .id = j->id,
        .reason = "digest",
        .player_id = atoll(j->player),
        .to_name = who.name,
        .to_address = address,
        .payload = payload,
        .date = (long long)time(NULL),
        .reply_to = reply_to[0] ? reply_to : NULL,
        .created = PQgetvalue(j->rows, 0, STORE_OUTBOX_DIGEST_CREATED),
    };
    j->message = mail_compose(&n, why);
    json_decref(payload);
    if (j->message == NULL) {
        free(talk_through);
        delivery_finish(&j->delivery, "failed", false, 0, why);
        return true;
    }
    /* Marked as the mail is written, as turn mails do (notify.c): each
     * message rides in one mail. */
    for (int i = 0; i < PQntuples(j->rows); i++) {
        if (talk_through[i] == 0)
            continue;
        long long match_id =
            atoll(PQgetvalue(j->rows, i, STORE_OUTBOX_DIGEST_MATCH));
        if (!table_talk_mailed(j->conn, match_id, atoll(j->player),
                               talk_through[i], &err))
            log_warn("match m_%lld: the messages in digest %s were not "
                     "marked: %s",
                     match_id, j->id, err.message);
    }
    free(talk_through);
    return delivery_prepare_mail(&j->delivery, address, j->message,
                                 &j->upload, &j->recipients,
                                 j->config->timeout_seconds);
}

/* Claims, sends and records one player's digest. */
static bool send_one(PGconn *conn, const notify_config *config,
                     const char *player, CURLM *multi, worker *self)
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
    digest_job j = {
        .conn = conn, .config = config, .player = player, .rows = rows};
    delivery_prepared(&j.delivery, prepare(&j));
    delivery *batch[] = {&j.delivery};
    delivery_run(multi, self, batch, 1, &digest_delivery, NULL);
    curl_slist_free_all(j.recipients);
    free(j.message);
    PQclear(rows);
    return true;
}

int notify_digest_send(PGconn *conn, const notify_config *config,
                       CURLM *multi, worker *self)
{
    apierr err;
    PGresult *players = store_outbox_digest_players(conn, DIGEST_PLAYERS, &err);
    if (players == NULL)
        return -1;
    int sent = 0;
    for (int i = 0; i < PQntuples(players) && i < DIGEST_PLAYERS; i++) {
        if (!send_one(conn, config, PQgetvalue(players, i, 0), multi, self)) {
            sent = -1;
            break;
        }
        sent++;
    }
    PQclear(players);
    return sent;
}
