/* mailbox_test.c */
#include "mailbox_test.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/config.h"
#include "core/log.h"
#include "store/db.h"

static void pause_ms(int ms)
{
    struct timespec t = {.tv_sec = ms / 1000,
                         .tv_nsec = (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

void recorder_init(recorder *r, imap_outcome answer)
{
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    r->answer = answer;
}

void recorder_answer(recorder *r, imap_outcome answer)
{
    pthread_mutex_lock(&r->lock);
    r->answer = answer;
    pthread_mutex_unlock(&r->lock);
}

/* The Message-ID's value between its angle brackets, or "". */
static void message_id(const char *raw, char *id, size_t size)
{
    const char *header = strstr(raw, "Message-ID: <");
    const char *end = header ? strchr(header, '>') : NULL;
    if (header == NULL || end == NULL) {
        snprintf(id, size, "%s", "");
        return;
    }
    header += strlen("Message-ID: <");
    snprintf(id, size, "%.*s", (int)(end - header), header);
}

imap_outcome recorder_handle(void *context, const char *raw, size_t length)
{
    recorder *r = context;
    char id[64];
    message_id(raw, id, sizeof id);
    /* The worker promises raw[length] is the end of a C string. */
    cr_assert_eq(strlen(raw), length);
    pthread_mutex_lock(&r->lock);
    r->calls++;
    int i = 0;
    while (i < r->ids && strcmp(r->id[i], id) != 0)
        i++;
    if (i == r->ids && r->ids < RECORDER_MAX)
        snprintf(r->id[r->ids++], sizeof r->id[0], "%s", id);
    if (i < RECORDER_MAX)
        r->times[i]++;
    imap_outcome answer = r->answer;
    pthread_mutex_unlock(&r->lock);
    return answer;
}

int recorder_times(recorder *r, const char *id)
{
    pthread_mutex_lock(&r->lock);
    int times = 0;
    for (int i = 0; i < r->ids; i++) {
        if (strcmp(r->id[i], id) == 0)
            times = r->times[i];
    }
    pthread_mutex_unlock(&r->lock);
    return times;
}

int recorder_calls(recorder *r)
{
    pthread_mutex_lock(&r->lock);
    int calls = r->calls;
    pthread_mutex_unlock(&r->lock);
    return calls;
}

bool recorder_wait_calls(recorder *r, int calls, int seconds)
{
    for (int i = 0; i < seconds * 100; i++) {
        if (recorder_calls(r) >= calls)
            return true;
        pause_ms(10);
    }
    return recorder_calls(r) >= calls;
}

char *test_mail(const char *id, size_t body_bytes, size_t *length)
{
    return test_mail_from("Eliza <eliza@example.org>", id, body_bytes, length);
}

char *test_mail_from(const char *from, const char *id, size_t body_bytes,
                     size_t *length)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    fprintf(f,
            "From: %s\r\n"
            "To: pbem <turns@pbem.example>\r\n"
            "Subject: my move\r\n"
            "Message-ID: <%s>\r\n"
            "Date: Wed, 25 Nov 2026 16:00:00 +0000\r\n"
            "\r\n"
            "draw\r\n",
            from, id);
    /* Lines of 76 characters, as base64 bodies are. */
    for (size_t written = 0; written < body_bytes; written += 78)
        fputs("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
              "xxxxxxxxxxxxxx\r\n",
              f);
    cr_assert_eq(fclose(f), 0);
    *length = len;
    return text;
}

void deliver(const dovecot *d, const char *user, const char *id)
{
    deliver_from(d, user, "Eliza <eliza@example.org>", id);
}

void deliver_from(const dovecot *d, const char *user, const char *from,
                  const char *id)
{
    size_t length;
    char *mail = test_mail_from(from, id, 0, &length);
    dovecot_append(d, user, "INBOX", mail, length);
    free(mail);
}

void test_config(const dovecot *d, const char *user, const char *done,
                 imap_config *config)
{
    char url[512];
    dovecot_url(d, user, "INBOX", url, sizeof url);
    test_config_url(url, done, config);
}

void test_config_url(const char *url, const char *done, imap_config *config)
{
    setenv("PBEM_IMAP_URL", url, 1);
    if (done != NULL)
        setenv("PBEM_IMAP_DONE", done, 1);
    else
        unsetenv("PBEM_IMAP_DONE");
    setenv("PBEM_IMAP_POLL_MS", "50", 1);
    setenv("PBEM_IMAP_TIMEOUT", "5", 1);
    /* Warnings only: a worker's start line per test is noise. */
    log_set_quiet(1);
    apierr err;
    cr_assert(config_load(&err), "%s", err.message);
    cr_assert(imap_config_from_env(config, &err), "%s", err.message);
    /* The worker holds each message in PostgreSQL while it works on it
     * (store/imap_claims.h): scripts/test.sh's test database. */
    cr_assert(db_init(getenv("DATABASE_URL"), &err), "%s", err.message);
}

imap_worker *start_worker(const imap_config *config, recorder *r)
{
    apierr err;
    imap_worker *w = imap_worker_start(config, recorder_handle, r, &err);
    cr_assert_not_null(w, "%s", err.message);
    return w;
}

bool wait_stat(const imap_worker *w,
               unsigned long (*pick)(const imap_worker_stats *),
               unsigned long at_least, int seconds)
{
    imap_worker_stats s;
    for (int i = 0; i < seconds * 100; i++) {
        imap_worker_stats_get(w, &s);
        if (pick(&s) >= at_least)
            return true;
        pause_ms(10);
    }
    imap_worker_stats_get(w, &s);
    return pick(&s) >= at_least;
}

unsigned long stat_rounds(const imap_worker_stats *s)
{
    return s->rounds;
}

unsigned long stat_failures(const imap_worker_stats *s)
{
    return s->failures;
}

unsigned long stat_elsewhere(const imap_worker_stats *s)
{
    return s->elsewhere;
}
