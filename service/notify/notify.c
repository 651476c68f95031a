/* notify.c: the outbox worker: its rounds (claim, send, record) on a
 * core/worker thread. */
#include "notify/notify.h"

#include <curl/curl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/config.h"
#include "core/log.h"
#include "core/worker.h"
#include "notify/delivery.h"
#include "notify/mail.h"
#include "notify/mail_answers.h"
#include "notify/mail_thread.h"
#include "notify/mail_time.h"
#include "notify/notify_digest.h"
#include "notify/notify_outbox.h"
#include "notify/table_talk.h"
#include "notify/push.h"
#include "notify/webhooks.h"
#include "store/db.h"
#include "store/db_params.h"
#include "store/mail_answers.h"
#include "store/outbox.h"
#include "store/players.h"

#define WAIT_MIN_MS 20

struct notify_worker {
    notify_config config;
    worker *thread;
    /* The thread's own, from begin to end: */
    CURLM *multi;
    PGconn *listen; /* LISTEN pbem_outbox; NULL until (re)connected */
};

/* One claimed row on its way out. */
typedef struct job {
    delivery delivery; /* first: delivery_run hands it back */
    long long match_id, outbox_id, player_id, webhook_id;
    int attempts; /* before this one */
    char ref[48], channel[48], reason[24];
    struct curl_slist *headers;
    char *body;
    mail_upload upload;
    webhooks_guard guard;
    push_transfer push; /* a "push:<id>" row's */
    /* Answers to the player's mails that went inside this mail: */
    long long *merged;
    int merged_count;
} job;

/* What the delivery callbacks of a batch work with. */
typedef struct batch_context {
    notify_worker *w;
    PGconn *conn;
} batch_context;

/* The Standard Webhooks body and headers of a delivery, signed with the
 * endpoint's secret; false when the secret is malformed. */
static bool standard_delivery(job *j, const char *payload_text,
                              const char *created, const char *secret,
                              struct curl_slist **headers)
{
    json_t *payload = json_loads(payload_text, 0, NULL);
    json_t *body = json_pack("{s:s,s:s,s:o}", "type",
                             json_string_value(json_object_get(payload, "type"))
                                 ? json_string_value(json_object_get(payload, "type"))
                                 : "match.notification",
                             "timestamp", created, "data",
                             payload ? payload : json_object());
    j->body = json_dumps(body, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(body);
    long long now = (long long)time(NULL);
    char signature[WEBHOOKS_SIGNATURE_MAX];
    if (!webhooks_sign(secret, j->ref, now, j->body, strlen(j->body),
                       signature))
        return false;
    char id_line[96], ts_line[64], sig_line[128];
    snprintf(id_line, sizeof id_line, "webhook-id: %s", j->ref);
    snprintf(ts_line, sizeof ts_line, "webhook-timestamp: %lld", now);
    snprintf(sig_line, sizeof sig_line, "webhook-signature: %s", signature);
    const char *lines[] = {id_line, ts_line, sig_line};
    for (int i = 0; i < 3; i++) {
        struct curl_slist *more = curl_slist_append(*headers, lines[i]);
        if (more == NULL)
            abort();
        *headers = more;
    }
    return true;
}

static bool prepare_webhook(notify_worker *w, PGconn *conn, job *j,
                            const char *payload_text, const char *created)
{
    char url[WEBHOOKS_URL_MAX + 1], secret[WEBHOOKS_SECRET_MAX];
    bool disabled = false;
    chat_format format = CHAT_STANDARD;
    apierr err;
    int found = webhooks_load(conn, j->webhook_id, url, secret, &disabled,
                              &format, &err);
    if (found < 0)
        return false;
    if (found == 1 || disabled) {
        delivery_finish(&j->delivery, "skipped", true, 0,
                        found == 1 ? "the webhook no longer exists"
                                   : "the webhook is disabled");
        sodium_memzero(secret, sizeof secret);
        return true;
    }
    struct curl_slist *h = curl_slist_append(NULL,
                                             "Content-Type: application/json");
    /* "Expect: 100-continue" would cost a round trip on larger bodies. */
    struct curl_slist *more = h ? curl_slist_append(h, "Expect:") : NULL;
    if (more == NULL)
        abort();
    h = more;
    bool ok = true;
    if (format == CHAT_STANDARD) {
        ok = standard_delivery(j, payload_text, created, secret, &h);
    } else {
        /* A chat service's incoming webhook: its URL is the secret, and
         * the body is the service's own (chat_formats.h). */
        json_t *payload = json_loads(payload_text, 0, NULL);
        j->body = payload ? webhooks_chat_body(conn, j->match_id, format,
                                               payload, &err)
                          : NULL;
        json_decref(payload);
        if (j->body == NULL) {
            curl_slist_free_all(h);
            sodium_memzero(secret, sizeof secret);
            return false;
        }
    }
    sodium_memzero(secret, sizeof secret);
    j->headers = h;
    if (!ok) {
        delivery_finish(&j->delivery, "skipped", true, 0,
                        "the webhook secret is malformed");
        return true;
    }
    CURL *easy = curl_easy_init();
    j->delivery.easy = easy;
    j->guard.allow_loopback = w->config.allow_loopback;
    if (easy == NULL ||
        !webhooks_prepare(easy, url, w->config.timeout_seconds, &j->guard) ||
        curl_easy_setopt(easy, CURLOPT_HTTPHEADER, j->headers) != CURLE_OK ||
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, j->body) != CURLE_OK ||
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE,
                         (curl_off_t)strlen(j->body)) != CURLE_OK)
        return false;
    return true;
}

/* A deadline's times in payload (a reminder's, the admins' notice), on
 * the reader's clock (mail_time.h; player 0, the admins: UTC) instead of
 * RFC 3339. */
static void deadline_on_clock(PGconn *conn, long long player_id,
                              json_t *payload)
{
    json_t *deadline = json_object_get(payload, "deadline");
    static const char *const keys[] = {"due_at", "fires_at"};
    for (size_t i = 0; json_is_object(deadline) && i < 2; i++) {
        const char *at = json_string_value(json_object_get(deadline, keys[i]));
        if (at == NULL)
            continue;
        char local[MAIL_TIME_MAX];
        mail_time_of(conn, player_id, at, true, local);
        json_object_set_new(deadline, keys[i], json_string(local));
    }
}

/* The answers held for this mail of the match (mail_answers.h), taken
 * for it: their text without the views they showed (the mail shows the
 * match as it is now) into *text, the mails they answer into *in_reply_to
 * (the latest) and *references, all malloc'd, and their ids into j. False
 * on a database error; *text NULL when none is held. */
static bool held_answers(notify_worker *w, PGconn *conn, job *j,
                         const char *address, char **text, char **in_reply_to,
                         char **references)
{
    *text = *in_reply_to = *references = NULL;
    apierr err;
    PGresult *r = store_mail_answers_take_held(conn, j->match_id, address,
                                               w->config.lease_seconds, &err);
    if (r == NULL)
        return false;
    int n = PQntuples(r);
    if (n == 0) {
        PQclear(r);
        return true;
    }
    j->merged = calloc((size_t)n, sizeof *j->merged);
    size_t text_size = 0, refs_size = 0;
    FILE *out = open_memstream(text, &text_size);
    FILE *refs = open_memstream(references, &refs_size);
    if (j->merged == NULL || out == NULL || refs == NULL)
        abort();
    for (int i = 0; i < n; i++) {
        j->merged[j->merged_count++] =
            atoll(PQgetvalue(r, i, STORE_MAIL_ANSWERS_HELD_ID));
        const char *body = PQgetvalue(r, i, STORE_MAIL_ANSWERS_HELD_BODY);
        fprintf(out, "%s%.*s", i ? "\n\n" : "",
                (int)mail_answers_told_length(body), body);
        if (!PQgetisnull(r, i, STORE_MAIL_ANSWERS_HELD_IN_REPLY_TO)) {
            const char *id =
                PQgetvalue(r, i, STORE_MAIL_ANSWERS_HELD_IN_REPLY_TO);
            fprintf(refs, "%s%s", i ? " " : "", id);
            free(*in_reply_to);
            *in_reply_to = strdup(id);
        }
    }
    PQclear(r);
    if (fclose(out) != 0 || fclose(refs) != 0)
        abort();
    return true;
}

static bool prepare_mail(notify_worker *w, PGconn *conn, job *j,
                         const char *payload_text, const char *created)
{
    if (!mail_configured()) {
        delivery_finish(&j->delivery, "skipped", true, 0,
                        "this service has no SMTP server (PBEM_SMTP_URL)");
        return true;
    }
    apierr err;
    store_player player;
    if (!store_player_load(conn, j->player_id, false, &player, &err)) {
        if (err.status != 404)
            return false;
        player.email[0] = '\0';
    }
    if (player.email[0] == '\0') {
        delivery_finish(&j->delivery, "skipped", true, 0,
                        "the player has no email address");
        return true;
    }
    json_t *payload = json_loads(payload_text, 0, NULL);
    deadline_on_clock(conn, j->player_id, payload);
    char why[256] = "";
    const char *address = player.email;
    /* Made at each attempt: an answer names the seat it plays for. */
    char reply_to[MAIL_ADDRESS_MAX];
    const json_t *seat = json_object_get(payload, "seat");
    /* Every mail about the match to this seat is one conversation. */
    mail_thread thread = {0};
    bool threaded = false;
    long long talk_through = 0;
    if (json_is_integer(seat)) {
        /* The messages at the table ride along (no mail of their own). */
        apierr talk_err;
        char *talk = table_talk_unmailed(conn, j->match_id, j->player_id,
                                         &talk_through, &talk_err);
        if (talk != NULL && talk[0] != '\0')
            json_object_set_new(payload, "table_talk", json_string(talk));
        free(talk);
        mail_reply_address(REPLY_TOKEN_SEAT, j->player_id, j->match_id,
                           (int)json_integer_value(seat), reply_to);
        threaded = mail_thread_load(conn, j->match_id,
                                    (int)json_integer_value(seat), &thread);
    } else {
        mail_reply_address(REPLY_TOKEN_ACCOUNT, j->player_id, 0, -1,
                           reply_to);
    }
    /* A turn or the end carries the answers to the player's mails about
     * the match that were held for it: one mail, not two. */
    char *answered = NULL, *in_reply_to = NULL, *references = NULL;
    if ((strcmp(j->reason, "your_turn") == 0 ||
         strcmp(j->reason, "match_over") == 0) &&
        !held_answers(w, conn, j, address, &answered, &in_reply_to,
                      &references)) {
        json_decref(payload);
        return false;
    }
    mail_notification n = {
        .id = j->ref,
        .reason = j->reason,
        .player_id = j->player_id,
        .to_name = player.name,
        .to_address = address,
        .payload = payload,
        .date = (long long)time(NULL),
        .reply_to = reply_to[0] ? reply_to : NULL,
        .created = created,
        .thread = threaded ? &thread : NULL,
        .answered = answered,
        .in_reply_to = in_reply_to,
        .references = references,
    };
    j->body = mail_compose(&n, why);
    json_decref(payload);
    free(answered);
    free(in_reply_to);
    free(references);
    if (j->body == NULL) {
        delivery_finish(&j->delivery, "failed", false, 0, why);
        return true;
    }
    /* Marked as the mail is written: a message is in one mail, not in
     * every retry of a later one too. */
    apierr mark_err;
    if (!table_talk_mailed(conn, j->match_id, j->player_id, talk_through,
                           &mark_err))
        log_warn("match m_%lld: the messages mailed to player %lld were not "
                 "marked: %s",
                 j->match_id, j->player_id, mark_err.message);
    return delivery_prepare_mail(&j->delivery, address, j->body, &j->upload,
                                 &j->headers, w->config.timeout_seconds);
}

/* A deadline that passed in a match whose action is to tell the admins:
 * mailed to PBEM_ADMIN_EMAIL; without an address (or mail) the row goes to
 * the dead letters at once, which is where admins look. */
static bool prepare_admin_mail(notify_worker *w, PGconn *conn, job *j,
                               const char *payload_text, const char *created)
{
    const char *address = config_text(CONFIG_ADMIN_EMAIL);
    if (address == NULL || !mail_configured()) {
        delivery_finish(&j->delivery, "skipped", true, 0,
                        "kept for the admins: no PBEM_ADMIN_EMAIL (or no "
                        "PBEM_SMTP_URL) to mail it to");
        return true;
    }
    json_t *payload = json_loads(payload_text, 0, NULL);
    deadline_on_clock(conn, 0, payload);
    char why[256] = "";
    mail_notification n = {
        .id = j->ref,
        .reason = j->reason,
        .to_name = "pbem admins",
        .to_address = address,
        .payload = payload,
        .date = (long long)time(NULL),
        .created = created,
    };
    j->body = mail_compose(&n, why);
    json_decref(payload);
    if (j->body == NULL) {
        delivery_finish(&j->delivery, "failed", false, 0, why);
        return true;
    }
    return delivery_prepare_mail(&j->delivery, address, j->body, &j->upload,
                                 &j->headers, w->config.timeout_seconds);
}

/* Claims due rows; fills jobs, returns how many, or -1. */
static int claim(notify_worker *w, PGconn *conn, job *jobs, char **payloads,
                 char (*created)[40])
{
    apierr err;
    PGresult *r = store_outbox_claim_due(conn, w->config.lease_seconds,
                                         w->config.batch, &err);
    if (r == NULL)
        return -1;
    int n = PQntuples(r);
    for (int i = 0; i < n; i++) {
        job *j = &jobs[i];
        memset(j, 0, sizeof *j);
        j->match_id = atoll(PQgetvalue(r, i, STORE_OUTBOX_DUE_MATCH));
        j->outbox_id = atoll(PQgetvalue(r, i, STORE_OUTBOX_DUE_ID));
        j->player_id = atoll(PQgetvalue(r, i, STORE_OUTBOX_DUE_PLAYER));
        j->webhook_id = atoll(PQgetvalue(r, i, STORE_OUTBOX_DUE_WEBHOOK));
        snprintf(j->channel, sizeof j->channel, "%s",
                 PQgetvalue(r, i, STORE_OUTBOX_DUE_CHANNEL));
        snprintf(j->reason, sizeof j->reason, "%s",
                 PQgetvalue(r, i, STORE_OUTBOX_DUE_REASON));
        payloads[i] = strdup(PQgetvalue(r, i, STORE_OUTBOX_DUE_PAYLOAD));
        if (payloads[i] == NULL)
            abort();
        j->attempts = atoi(PQgetvalue(r, i, STORE_OUTBOX_DUE_ATTEMPTS));
        snprintf(created[i], 40, "%s",
                 PQgetvalue(r, i, STORE_OUTBOX_DUE_CREATED));
        notify_outbox_ref(j->match_id, j->outbox_id, j->ref);
    }
    PQclear(r);
    return n;
}

/* Writes the attempt and the row's new state. */
static void record(delivery *d, void *context)
{
    job *j = (job *)d;
    const batch_context *batch = context;
    PGconn *conn = batch->conn;
    bool sent = strcmp(d->outcome, "sent") == 0;
    int attempt = j->attempts + 1;
    long long delay;
    const char *status =
        notify_after_attempt(&batch->w->config, attempt, sent, d->permanent,
                             d->retry_after_ms, &delay);
    bool dead = strcmp(status, "dead") == 0;
    apierr err;
    if (!store_outbox_record_attempt(conn, j->match_id, j->outbox_id, attempt,
                                     d->duration_ms, d->outcome, d->code,
                                     d->error[0] ? d->error : NULL, status,
                                     delay, &err))
        log_error("notification %s: its attempt could not be recorded; it "
                  "will be retried when its lease runs out", j->ref);
    if (sent)
        log_info("notification %s sent (%s, attempt %d)", j->ref, j->channel,
                 attempt);
    else
        log_warn("notification %s: attempt %d %s (%s)%s", j->ref, attempt,
                 d->outcome, d->error, dead ? "; moved to dead letters" : "");
    if (sent && j->merged_count > 0 &&
        !store_mail_answers_merged(conn, j->merged, j->merged_count, j->ref,
                                   &err))
        log_error("notification %s: the answers it carried stay held; they "
                  "go again on their own",
                  j->ref);
    long long push_id = push_channel_id(j->channel);
    if (strcmp(d->outcome, "gone") == 0 && push_id > 0) {
        if (!push_disable(conn, push_id, d->error, &err))
            log_error("notification %s: could not turn its push "
                      "subscription off", j->ref);
    } else if (strcmp(d->outcome, "gone") == 0 &&
               !webhooks_disable(conn, j->webhook_id,
                                 "the endpoint answered 410 Gone", &err)) {
        log_error("notification %s: could not disable its webhook", j->ref);
    }
}

static void release(delivery *d, void *context)
{
    const job *j = (const job *)d;
    const batch_context *batch = context;
    apierr err;
    store_outbox_release(batch->conn, j->match_id, j->outbox_id, &err);
}

static void judge(delivery *d, CURLcode result)
{
    job *j = (job *)d;
    bool mail = strcmp(j->channel, "email") == 0;
    if (result != CURLE_OK && j->guard.blocked) {
        char error[320];
        snprintf(error, sizeof error,
                 "refused to connect to the internal address %s",
                 j->guard.address);
        delivery_finish(d, "blocked", false, 0, error);
        return;
    }
    if (result != CURLE_OK || mail) {
        delivery_judge_transfer(d, result);
        return;
    }
    if (push_channel_id(j->channel) > 0) {
        push_judge(d);
        return;
    }
    long status = 0;
    curl_easy_getinfo(d->easy, CURLINFO_RESPONSE_CODE, &status);
    if (status >= 200 && status <= 299) {
        delivery_finish(d, "sent", false, status, NULL);
    } else if (status == 410) {
        delivery_finish(d, "gone", true, status,
                        "the endpoint answered 410 Gone; the webhook is "
                        "disabled");
    } else {
        char error[320];
        snprintf(error, sizeof error, "the endpoint answered HTTP %ld%s",
                 status,
                 status >= 300 && status < 400 ? " (redirects are not followed)"
                                               : "");
        delivery_finish(d, "failed", false, status, error);
    }
}

static const delivery_kind outbox_delivery = {
    .judge = judge,
    .record = record,
    .release = release,
};

/* Claims, sends and records one batch; the number claimed or -1. */
static int work_batch(notify_worker *w, worker *self, PGconn *conn)
{
    job jobs[NOTIFY_BATCH_MAX];
    delivery *batch[NOTIFY_BATCH_MAX];
    char *payloads[NOTIFY_BATCH_MAX] = {0};
    char created[NOTIFY_BATCH_MAX][40];
    int n = claim(w, conn, jobs, payloads, created);
    if (n <= 0)
        return n;
    for (int i = 0; i < n; i++) {
        job *j = &jobs[i];
        bool ok;
        if (strncmp(j->channel, "webhook:", 8) == 0 && j->webhook_id > 0)
            ok = prepare_webhook(w, conn, j, payloads[i], created[i]);
        else if (strcmp(j->channel, "email") == 0)
            ok = prepare_mail(w, conn, j, payloads[i], created[i]);
        else if (strcmp(j->channel, "admins") == 0)
            ok = prepare_admin_mail(w, conn, j, payloads[i], created[i]);
        else if (push_channel_id(j->channel) > 0) {
            j->guard.allow_loopback = w->config.allow_loopback;
            ok = push_prepare(&j->delivery, conn, push_channel_id(j->channel),
                              payloads[i], w->config.timeout_seconds,
                              &j->guard, &j->push);
        } else {
            delivery_finish(&j->delivery, "skipped", true, 0,
                            "no such channel");
            ok = true;
        }
        delivery_prepared(&j->delivery, ok);
        batch[i] = &j->delivery;
    }
    batch_context context = {.w = w, .conn = conn};
    delivery_run(w->multi, self, batch, n, &outbox_delivery, &context);
    for (int i = 0; i < n; i++) {
        curl_slist_free_all(jobs[i].headers);
        free(jobs[i].body);
        push_transfer_free(&jobs[i].push);
        free(jobs[i].merged);
        free(payloads[i]);
    }
    return n;
}
static void drain(PGconn *listen)
{
    PGnotify *note;
    while ((note = PQnotifies(listen)) != NULL)
        PQfreemem(note);
}

/* Milliseconds until the next pending row falls due (poll_ms when none). */
static long long next_due_ms(notify_worker *w, PGconn *conn)
{
    apierr err;
    long long wait = w->config.poll_ms, due;
    if (store_outbox_next_due_ms(conn, &due, &err) && due < wait)
        wait = due;
    wait = mail_answers_next_due_ms(conn, wait);
    return wait < WAIT_MIN_MS ? WAIT_MIN_MS : wait;
}

static bool begin(void *context)
{
    notify_worker *w = context;
    w->multi = curl_multi_init();
    if (w->multi == NULL) {
        log_error("notifications: libcurl cannot make a multi handle; no "
                  "notification will be sent");
        return false;
    }
    return true;
}

/* Sleeps on the LISTEN socket too, so a new row is sent at once; reads
 * what woke it at the start of the next round. */
static void one_round(worker *self, void *context, worker_pause *pause)
{
    notify_worker *w = context;
    if (w->listen != NULL && pause->fd_ready) {
        if (PQconsumeInput(w->listen) == 0) {
            PQfinish(w->listen);
            w->listen = NULL;
        } else {
            drain(w->listen);
        }
    }
    if (w->listen != NULL && PQstatus(w->listen) != CONNECTION_OK) {
        PQfinish(w->listen);
        w->listen = NULL;
    }
    if (w->listen == NULL) {
        apierr err;
        w->listen = db_listen("pbem_outbox", &err);
    }
    if (w->listen != NULL) {
        PQconsumeInput(w->listen);
        drain(w->listen);
    }
    apierr err;
    PGconn *conn = db_conn(&err);
    /* Pointless reminders go first, then digests, then single rows, then
     * the answers to mail (mail_answers.h). */
    int claimed = conn && store_outbox_cancel_pointless(conn, &err) >= 0
                      ? notify_digest_send(conn, &w->config, w->multi, self)
                      : -1;
    if (claimed >= 0) {
        int batch = work_batch(w, self, conn);
        claimed = batch < 0 ? -1 : claimed + batch;
    }
    if (claimed >= 0) {
        int answers = mail_answers_send(conn, &w->config, w->multi, self);
        claimed = answers < 0 ? -1 : claimed + answers;
    }
    if (claimed > 0) {
        pause->ms = 0;
        return;
    }
    pause->ms = claimed == 0 ? next_due_ms(w, conn) : w->config.poll_ms;
    pause->fd = w->listen ? PQsocket(w->listen) : -1;
}

static void end(void *context)
{
    notify_worker *w = context;
    curl_multi_cleanup(w->multi);
    if (w->listen != NULL)
        PQfinish(w->listen);
    db_close_thread();
}

notify_worker *notify_start(const notify_config *config, apierr *err)
{
    notify_worker *w = calloc(1, sizeof *w);
    if (w == NULL)
        abort();
    w->config = *config;
    worker_spec spec = {
        .name = "notifications",
        .what = "outbox worker",
        .error_code = "notify",
        .poll_ms = w->config.poll_ms,
        .context = w,
        .begin = begin,
        .round = one_round,
        .end = end,
    };
    w->thread = worker_start(&spec, err);
    if (w->thread == NULL) {
        free(w);
        return NULL;
    }
    return w;
}

void notify_stop(notify_worker *w)
{
    if (w == NULL)
        return;
    worker_stop(w->thread);
    free(w);
}
