/* clock.h: what time it is for the match clocks, and how times are written.
 *
 * Match time (deadlines, reminders, vacations, the "at" of every event) is
 * read through clock_now() and nothing else. In production it is the
 * system clock. For tests only, PBEM_CLOCK_FILE names a file holding the
 * time (unix seconds, or an RFC 3339 time): every process reading the file
 * agrees, and a test moves time by rewriting it (write a new file, then
 * rename it over the old one). pbemd logs a warning at start when it is
 * set, and does not start when the file cannot be read, so a stray
 * variable cannot silently freeze a production clock.
 *
 * Transport times stay on the system clock whatever the file says:
 * signature freshness, webhook timestamps, mail Date headers, outbox
 * retries. */
#ifndef SERVICE_CORE_CLOCK_H
#define SERVICE_CORE_CLOCK_H

#include <stdbool.h>

#include "core/apierr.h"

/* Reads PBEM_CLOCK_FILE once, when it is set: false with err filled when
 * the file cannot be read or holds no time; logs the test-only warning. */
bool clock_init(apierr *err);

/* True when the time comes from PBEM_CLOCK_FILE. */
bool clock_is_fake(void);

/* Match time now, in microseconds since 1970 (UTC). A fake clock that has
 * become unreadable keeps its last good value (and says so in the log). */
long long clock_now_us(void);

/* The same, in whole seconds. */
long long clock_now(void);

/* "2026-11-22T10:00:00Z" for unix seconds (out: at least 32 bytes). */
void clock_format(long long seconds, char out[32]);

/* Reads an RFC 3339 time ("2026-11-22T10:00:00Z", "…T12:00:00.5+02:00";
 * fractions are dropped) or, when allow_unix, whole unix seconds. False
 * when text is neither. */
bool clock_parse(const char *text, bool allow_unix, long long *seconds);

#endif
