/* mail_answers_send.c: the outbox worker's round over mail_answers
 * (mail_answers.h): claim, then the delivery loop (delivery.h). */
#include "notify/mail_answers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/log.h"
#include "core/metrics.h"
#include "notify/delivery.h"
#include "notify/mail.h"
#include "notify/mail_thread.h"
#include "store/players.h"
#include "store/mail_answers.h"

/* One claimed row on its way out. */
typedef struct answer_job {
    delivery delivery; /* first: delivery_run hands it back */
    long long answer_id;
    int attempts; /* before this one */
    char *message;
    mail_upload upload;
    struct curl_slist *recipients;
} answer_job;

/* What the delivery callbacks of a round work with. */
typedef struct answers_context {
    PGconn *conn;
    const notify_config *config;
} answers_context;

static const char *text_or_null(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? NULL : PQgetvalue(r, row, col);
}

/* Without an SMTP server nothing can go: says so once per process, when
 * something waits. */
static void warn_without_smtp(PGconn *conn)
{
    static int warned;
    if (__atomic_load_n(&warned, __ATOMIC_ACQUIRE))
        return;
    apierr err;
    long long waiting = store_mail_answers_pending(conn, &err);
    if (waiting > 0 && !__atomic_exchange_n(&warned, 1, __ATOMIC_ACQ_REL))
        log_warn("mail answers: %lld waiting, but this service has no SMTP "
                 "server (PBEM_SMTP_URL): they stay pending until it has one",
                 waiting);
}

/* The Message-ID's left-hand side: the kind and the row, keyed with the
 * row's time (mail_thread.h), so a resent answer is recognisably the same
 * message and no other installation's or earlier database's is. */
static void message_id(const char *kind, long long answer_id,
                       const char *created, char out[MAIL_THREAD_ID_MAX])
{
    bool plain = kind[0] != '\0' && strlen(kind) < 24;
    for (const char *c = kind; plain && *c; c++)
        plain = (*c >= 'a' && *c <= 'z') || *c == '_';
    char what[64];
    snprintf(what, sizeof what, "%s-%lld", plain ? kind : "mail", answer_id);
    mail_thread_message_id(what, created, out);
}

/* The thread of the match a mail is about, read from the seat token of
 * its Reply-To (an answer about a match carries one): false when it is
 * about no match. */
static bool thread_of_reply_to(PGconn *conn, const char *reply_to,
                               mail_thread *out)
{
    char text[REPLY_TOKEN_CHARS + 1], why[128];
    reply_token token;
    if (reply_to == NULL || !reply_token_in_address(reply_to, text) ||
        text[0] == '\0' ||
        !reply_token_read(text, (long long)time(NULL), &token, why,
                          sizeof why) ||
        token.kind != REPLY_TOKEN_SEAT || token.seat < 0)
        return false;
    return mail_thread_load(conn, token.match_id, token.seat, out);
}

/* Writes row i's message and sets up its transfer; a row that cannot be
 * written is finished (dead) instead. False when libcurl refused. */
static bool prepare(PGconn *conn, const PGresult *r, int i,
                    const notify_config *config, answer_job *j)
{
    const char *kind = PQgetvalue(r, i, STORE_MAIL_ANSWERS_KIND);
    const char *to = PQgetvalue(r, i, STORE_MAIL_ANSWERS_TO);
    const char *reply_to = text_or_null(r, i, STORE_MAIL_ANSWERS_REPLY_TO);
    char id[MAIL_THREAD_ID_MAX], why[256] = "";
    message_id(kind, j->answer_id,
               PQgetvalue(r, i, STORE_MAIL_ANSWERS_CREATED), id);
    mail_thread thread = {0};
    bool threaded = thread_of_reply_to(conn, reply_to, &thread);
    /* An address that is a player's can stop the service's mail. */
    apierr err;
    long long player_id = store_player_by_email(conn, to, &err);
    mail_plain plain = {
        .id = id,
        .to_address = to,
        .subject = PQgetvalue(r, i, STORE_MAIL_ANSWERS_SUBJECT),
        .body = PQgetvalue(r, i, STORE_MAIL_ANSWERS_BODY),
        .reply_to = reply_to,
        .in_reply_to = text_or_null(r, i, STORE_MAIL_ANSWERS_IN_REPLY_TO),
        .references = text_or_null(r, i, STORE_MAIL_ANSWERS_REFERENCES),
        /* RFC 3834: an answer to a mail is auto-replied; the rest were
         * made by the service on its own. */
        .auto_submitted = strcmp(kind, "answer") == 0 ? "auto-replied"
                                                       : "auto-generated",
        .date = (long long)time(NULL),
        .thread = threaded ? &thread : NULL,
        .player_id = player_id > 0 ? player_id : 0,
    };
    j->message = mail_compose_plain(&plain, why);
    if (j->message == NULL) {
        delivery_finish(&j->delivery, "failed", true, 0, why);
        return true;
    }
    return delivery_prepare_mail(&j->delivery, plain.to_address, j->message,
                                 &j->upload, &j->recipients,
                                 config->timeout_seconds);
}

/* The SMTP server took the mail, or did not: its code goes into the
 * error, as mail_answers keeps no code of its own. */
static void judge(delivery *d, CURLcode result)
{
    if (result == CURLE_OK) {
        delivery_finish(d, "sent", false, 0, NULL);
        return;
    }
    long code = 0;
    curl_easy_getinfo(d->easy, CURLINFO_RESPONSE_CODE, &code);
    char error[320], answered[48] = "";
    if (code)
        snprintf(answered, sizeof answered, " (SMTP %ld)", code);
    snprintf(error, sizeof error, "%s%s%.200s%s", curl_easy_strerror(result),
             d->errbuf[0] ? ": " : "", d->errbuf, answered);
    delivery_finish(d, "failed", false, code, error);
}

/* Writes the attempt's outcome into the row: sent, pending again after
 * the backoff, or dead. */
static void record(delivery *d, void *context)
{
    const answer_job *j = (const answer_job *)d;
    const answers_context *round = context;
    bool sent = strcmp(d->outcome, "sent") == 0;
    int attempt = j->attempts + 1;
    long long delay;
    const char *status = notify_after_attempt(round->config, attempt, sent,
                                              d->permanent, 0, &delay);
    apierr err;
    if (!store_mail_answers_record(round->conn, j->answer_id, attempt, status,
                                   sent ? NULL : d->error, delay, &err))
        log_error("mail answer %lld: its attempt could not be recorded; it "
                  "will be retried when its lease runs out",
                  j->answer_id);
    bool dead = strcmp(status, "dead") == 0;
    metrics_mail_answers(sent, !sent && !dead, dead);
    if (sent)
        log_info("mail answer %lld sent (attempt %d)", j->answer_id, attempt);
    else
        log_warn("mail answer %lld: attempt %d failed (%s)%s", j->answer_id,
                 attempt, d->error, dead ? "; it is dead" : "");
}

/* A row whose transfer was cut short by a stop: due again now, and the
 * attempt not counted. */
static void release(delivery *d, void *context)
{
    const answer_job *j = (const answer_job *)d;
    const answers_context *round = context;
    apierr err;
    store_mail_answers_release(round->conn, j->answer_id, &err);
}

static const delivery_kind answer_delivery = {
    .judge = judge,
    .record = record,
    .release = release,
};

int mail_answers_send(PGconn *conn, const notify_config *config, CURLM *multi,
                      worker *self)
{
    if (!mail_configured()) {
        warn_without_smtp(conn);
        return 0;
    }
    apierr err;
    PGresult *r = store_mail_answers_claim(conn, config->lease_seconds,
                                           config->batch, &err);
    if (r == NULL)
        return -1;
    int n = PQntuples(r);
    answer_job *jobs = calloc((size_t)(n > 0 ? n : 1), sizeof *jobs);
    delivery **batch = calloc((size_t)(n > 0 ? n : 1), sizeof *batch);
    if (jobs == NULL || batch == NULL)
        abort();
    for (int i = 0; i < n; i++) {
        answer_job *j = &jobs[i];
        j->answer_id = atoll(PQgetvalue(r, i, STORE_MAIL_ANSWERS_ID));
        j->attempts = atoi(PQgetvalue(r, i, STORE_MAIL_ANSWERS_ATTEMPTS));
        delivery_prepared(&j->delivery, prepare(conn, r, i, config, j));
        batch[i] = &j->delivery;
    }
    PQclear(r);
    answers_context context = {.conn = conn, .config = config};
    delivery_run(multi, self, batch, n, &answer_delivery, &context);
    for (int i = 0; i < n; i++) {
        curl_slist_free_all(jobs[i].recipients);
        free(jobs[i].message);
    }
    free(batch);
    free(jobs);
    return n;
}

long long mail_answers_next_due_ms(PGconn *conn, long long ceiling_ms)
{
    if (!mail_configured())
        return ceiling_ms;
    apierr err;
    long long wait = ceiling_ms, due;
    if (store_mail_answers_next_due_ms(conn, &due, &err) && due < wait)
        wait = due < 0 ? 0 : due;
    return wait;
}
