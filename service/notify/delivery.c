/* delivery.c: see delivery.h. */
#include "notify/delivery.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "notify/notify_policy.h"

void delivery_finish(delivery *d, const char *outcome, bool permanent,
                     long code, const char *error)
{
    d->done = true;
    d->outcome = outcome;
    d->permanent = permanent;
    d->code = code;
    snprintf(d->error, sizeof d->error, "%s", error ? error : "");
}

void delivery_prepared(delivery *d, bool ok)
{
    if (!ok && !d->done)
        delivery_finish(d, "failed", false, 0,
                        "the delivery could not be prepared");
}

bool delivery_prepare_mail(delivery *d, const char *address,
                           const char *message, mail_upload *upload,
                           struct curl_slist **recipients,
                           int timeout_seconds)
{
    *upload = (mail_upload){.data = message, .len = strlen(message)};
    d->upload = upload;
    d->easy = curl_easy_init();
    return d->easy != NULL && mail_prepare(d->easy, address, upload,
                                           recipients, timeout_seconds);
}

void delivery_judge_transfer(delivery *d, CURLcode result)
{
    long status = 0;
    curl_easy_getinfo(d->easy, CURLINFO_RESPONSE_CODE, &status);
    if (result == CURLE_OK) {
        delivery_finish(d, "sent", false, status, NULL);
        return;
    }
    char error[320];
    snprintf(error, sizeof error, "%s%s%s", curl_easy_strerror(result),
             d->errbuf[0] ? ": " : "", d->errbuf);
    delivery_finish(d, "failed", false, status, error);
}

static long long elapsed_ms(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since->tv_sec) * 1000LL +
           (now.tv_nsec - since->tv_nsec) / 1000000;
}

static size_t discard(char *data, size_t size, size_t count, void *user)
{
    (void)data;
    (void)user;
    return size * count;
}

/* Reads Retry-After (seconds or an HTTP date) into the delivery. */
static size_t read_header(char *data, size_t size, size_t count, void *user)
{
    delivery *d = user;
    size_t len = size * count;
    static const char name[] = "retry-after:";
    if (len > sizeof name - 1 && len < 200 &&
        strncasecmp(data, name, sizeof name - 1) == 0) {
        char value[200];
        snprintf(value, sizeof value, "%.*s", (int)(len - (sizeof name - 1)),
                 data + sizeof name - 1);
        char *v = value;
        while (*v == ' ' || *v == '\t')
            v++;
        v[strcspn(v, "\r\n")] = '\0';
        char *end = NULL;
        long long seconds = strtoll(v, &end, 10);
        if (end != v && *end == '\0' && seconds >= 0) {
            /* Capped before it is counted in milliseconds: the endpoint
             * may send any number. */
            d->retry_after_ms = seconds < NOTIFY_RETRY_AFTER_MAX_MS / 1000
                                    ? seconds * 1000
                                    : NOTIFY_RETRY_AFTER_MAX_MS;
        } else {
            time_t when = curl_getdate(v, NULL);
            if (when > 0)
                d->retry_after_ms =
                    ((long long)when - (long long)time(NULL)) * 1000;
        }
    }
    return len;
}

/* Adds d's transfer to multi; d fails when libcurl refuses it. */
static void start(CURLM *multi, delivery *d)
{
    if (curl_easy_setopt(d->easy, CURLOPT_ERRORBUFFER, d->errbuf) != CURLE_OK ||
        curl_easy_setopt(d->easy, CURLOPT_PRIVATE, d) != CURLE_OK ||
        curl_easy_setopt(d->easy, CURLOPT_HEADERFUNCTION, read_header) !=
            CURLE_OK ||
        curl_easy_setopt(d->easy, CURLOPT_HEADERDATA, d) != CURLE_OK ||
        curl_easy_setopt(d->easy, CURLOPT_WRITEFUNCTION, discard) != CURLE_OK) {
        delivery_finish(d, "failed", false, 0, "libcurl refused the transfer");
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &d->started);
    if (curl_multi_add_handle(multi, d->easy) != CURLM_OK)
        delivery_finish(d, "failed", false, 0, "libcurl refused the transfer");
    else
        d->in_flight = true;
}

/* Whether d's mail failed because the connection it reused was gone: the
 * server closed it while idle (nothing could be sent or read) or said so
 * with 421. Only once per delivery, and never on a new connection: there
 * a 421 means the server is busy, which the retry delay is for. */
static bool stale_connection(delivery *d, CURLcode result)
{
    if (d->upload == NULL || d->reconnected || result == CURLE_OK)
        return false;
    long connects = 1, code = 0;
    curl_easy_getinfo(d->easy, CURLINFO_NUM_CONNECTS, &connects);
    curl_easy_getinfo(d->easy, CURLINFO_RESPONSE_CODE, &code);
    return connects == 0 &&
           (code == 421 || result == CURLE_SEND_ERROR ||
            result == CURLE_RECV_ERROR || result == CURLE_GOT_NOTHING);
}

/* Starts d's mail again from its first byte on a new connection; false
 * when libcurl refused (d is then judged as it ended). */
static bool reconnect(CURLM *multi, delivery *d)
{
    curl_multi_remove_handle(multi, d->easy);
    d->in_flight = false;
    d->reconnected = true;
    d->upload->pos = 0;
    d->errbuf[0] = '\0';
    if (curl_easy_setopt(d->easy, CURLOPT_FRESH_CONNECT, 1L) != CURLE_OK ||
        curl_multi_add_handle(multi, d->easy) != CURLM_OK)
        return false;
    d->in_flight = true;
    return true;
}

/* Runs the transfers until all are done or self is asked to stop. */
static void perform(CURLM *multi, worker *self, const delivery_kind *kind)
{
    while (!worker_stopping(self)) {
        int running = 0;
        if (curl_multi_perform(multi, &running) != CURLM_OK)
            return;
        CURLMsg *msg;
        int left;
        while ((msg = curl_multi_info_read(multi, &left)) != NULL) {
            if (msg->msg != CURLMSG_DONE)
                continue;
            delivery *d = NULL;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&d);
            if (d == NULL)
                continue;
            CURLcode result = msg->data.result;
            if (stale_connection(d, result) && reconnect(multi, d)) {
                running++;
                continue;
            }
            d->duration_ms = elapsed_ms(&d->started);
            kind->judge(d, result);
        }
        if (running == 0)
            return;
        struct curl_waitfd extra = {.fd = worker_wake_fd(self),
                                    .events = CURL_WAIT_POLLIN};
        if (curl_multi_poll(multi, &extra, 1, 1000, NULL) != CURLM_OK)
            return;
    }
}

void delivery_run(CURLM *multi, worker *self, delivery *const *batch, int count,
                  const delivery_kind *kind, void *context)
{
    for (int i = 0; i < count; i++) {
        delivery *d = batch[i];
        if (d->done)
            continue;
        if (d->easy == NULL)
            delivery_prepared(d, false);
        else
            start(multi, d);
    }
    perform(multi, self, kind);
    for (int i = 0; i < count; i++) {
        delivery *d = batch[i];
        if (d->in_flight)
            curl_multi_remove_handle(multi, d->easy);
        d->in_flight = false;
        if (d->done)
            kind->record(d, context);
        else
            kind->release(d, context);
        if (d->easy != NULL)
            curl_easy_cleanup(d->easy);
        d->easy = NULL;
    }
}
