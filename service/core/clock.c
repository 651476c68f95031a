/* clock.c */
#include "core/clock.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/config.h"
#include "core/log.h"

static const char *fake_file;
static long long last_fake_us;
static pthread_mutex_t fake_lock = PTHREAD_MUTEX_INITIALIZER;

static int digits(const char *p, int count)
{
    int value = 0;
    for (int i = 0; i < count; i++) {
        if (!isdigit((unsigned char)p[i]))
            return -1;
        value = value * 10 + (p[i] - '0');
    }
    return value;
}

static bool parse_unix(const char *text, long long *seconds)
{
    char *end = NULL;
    long long value = strtoll(text, &end, 10);
    if (end == text)
        return false;
    if (*end == '.') {
        end++;
        while (isdigit((unsigned char)*end))
            end++;
    }
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0' || value < 0)
        return false;
    *seconds = value;
    return true;
}

bool clock_parse(const char *text, bool allow_unix, long long *seconds)
{
    if (text == NULL)
        return false;
    while (isspace((unsigned char)*text))
        text++;
    size_t len = strlen(text);
    if (len < 20 || text[4] != '-' || text[7] != '-' ||
        (text[10] != 'T' && text[10] != 't') || text[13] != ':' ||
        text[16] != ':')
        return allow_unix && parse_unix(text, seconds);
    int year = digits(text, 4), month = digits(text + 5, 2);
    int day = digits(text + 8, 2), hour = digits(text + 11, 2);
    int minute = digits(text + 14, 2), second = digits(text + 17, 2);
    if (year < 1970 || month < 1 || month > 12 || day < 1 || day > 31 ||
        hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 ||
        second > 60)
        return false;
    const char *p = text + 19;
    if (*p == '.') {
        p++;
        if (!isdigit((unsigned char)*p))
            return false;
        while (isdigit((unsigned char)*p))
            p++;
    }
    long long offset = 0;
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        /* p[3] exists only once the two digits before it do. */
        int oh = digits(p + 1, 2);
        int om = oh >= 0 && p[3] == ':' ? digits(p + 4, 2) : -1;
        if (oh < 0 || oh > 23 || om < 0 || om > 59)
            return false;
        offset = (*p == '+' ? 1 : -1) * (oh * 3600LL + om * 60LL);
        p += 6;
    } else {
        return false;
    }
    while (isspace((unsigned char)*p))
        p++;
    if (*p != '\0')
        return false;
    struct tm tm = {.tm_year = year - 1900,
                    .tm_mon = month - 1,
                    .tm_mday = day,
                    .tm_hour = hour,
                    .tm_min = minute,
                    .tm_sec = second > 59 ? 59 : second};
    time_t utc = timegm(&tm);
    /* timegm normalises 31 February into March: refuse such dates. */
    struct tm check;
    gmtime_r(&utc, &check);
    if (check.tm_mday != day || check.tm_mon != month - 1)
        return false;
    *seconds = (long long)utc - offset;
    return *seconds >= 0;
}

void clock_format(long long seconds, char out[32])
{
    time_t t = (time_t)seconds;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The fake time in microseconds, or -1 when the file cannot be read. */
static long long read_fake(void)
{
    FILE *f = fopen(fake_file, "r");
    if (f == NULL)
        return -1;
    char text[64] = {0};
    size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[got] = '\0';
    long long seconds;
    if (!clock_parse(text, true, &seconds))
        return -1;
    return seconds * 1000000LL;
}

bool clock_init(apierr *err)
{
    const char *file = config_text(CONFIG_CLOCK_FILE);
    if (file == NULL)
        return true;
    fake_file = file;
    long long now = read_fake();
    if (now < 0) {
        fake_file = NULL;
        return apierr_set(err, 500, "clock",
                          "PBEM_CLOCK_FILE is set to %s, which holds no time "
                          "(unix seconds or RFC 3339); it is for tests only: "
                          "unset it in production",
                          file);
    }
    last_fake_us = now;
    char when[32];
    clock_format(now / 1000000, when);
    log_warn("TEST CLOCK: PBEM_CLOCK_FILE=%s sets match time (now %s); "
             "deadlines follow that file, not the real time. Never set it "
             "in production.",
             file, when);
    return true;
}

bool clock_is_fake(void)
{
    return fake_file != NULL;
}

long long clock_now_us(void)
{
    if (fake_file == NULL) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        return (long long)now.tv_sec * 1000000LL + now.tv_nsec / 1000;
    }
    long long now = read_fake();
    pthread_mutex_lock(&fake_lock);
    if (now < 0) {
        now = last_fake_us;
        pthread_mutex_unlock(&fake_lock);
        log_warn("TEST CLOCK: %s cannot be read; keeping the last time",
                 fake_file);
        return now;
    }
    last_fake_us = now;
    pthread_mutex_unlock(&fake_lock);
    return now;
}

long long clock_now(void)
{
    return clock_now_us() / 1000000LL;
}
