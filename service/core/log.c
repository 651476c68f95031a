/* log.c: timestamped lines on stderr, one write per line so threads do not
 * interleave. */
#include "core/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static int quiet_mode;

void log_set_quiet(int quiet)
{
    quiet_mode = quiet;
}

static void log_line(const char *level, const char *fmt, va_list args)
{
    char line[1024];
    struct timespec now;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &now);
    gmtime_r(&now.tv_sec, &tm);
    int n = (int)strftime(line, sizeof line, "%Y-%m-%dT%H:%M:%S", &tm);
    n += snprintf(line + n, sizeof line - (size_t)n, ".%03ldZ %s ",
                  now.tv_nsec / 1000000, level);
    int body = vsnprintf(line + n, sizeof line - (size_t)n, fmt, args);
    n = body < 0 ? n : n + body;
    if (n > (int)sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    ssize_t written = write(STDERR_FILENO, line, (size_t)n);
    (void)written;
}

void log_info(const char *fmt, ...)
{
    if (quiet_mode)
        return;
    va_list args;
    va_start(args, fmt);
    log_line("INFO", fmt, args);
    va_end(args);
}

void log_warn(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    log_line("WARN", fmt, args);
    va_end(args);
}

void log_error(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    log_line("ERROR", fmt, args);
    va_end(args);
}
