/* log.h: one line per event on stderr, with time and level, for the person
 * reading it at 3 a.m. Never pass a secret (keys, seeds, sealed choices,
 * signatures) to these functions. */
#ifndef SERVICE_CORE_LOG_H
#define SERVICE_CORE_LOG_H

void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Quiet mode for tests: only warnings and errors. */
void log_set_quiet(int quiet);

#endif
