/* verify.h: checks a match from its public event log alone, as any player
 * or admin can: the hash chain, every sealed decision's commitments against
 * its reveals, every admin rewind (replay.h), and, once the final event
 * (`finished`, or an admin's `aborted`) has revealed the seed, the seed's
 * commitment and a replay of the match as it stands (every shuffle, roll
 * and counting move, text moves against their signed requests) through the
 * rules engine up to the recorded result. Deadlines are part of the
 * record: a "timeout" event's moves are replayed like moves, its "choice"
 * stands in for a commitment that was never revealed, and after
 * "forfeited" events the result must be forfeit_result (forfeit.h). Pure:
 * no database, no clock. Shared by GET /v1/matches/{id}/verify and
 * `pbem verify`. */
#ifndef SERVICE_LEDGER_VERIFY_H
#define SERVICE_LEDGER_VERIFY_H

#include <jansson.h>
#include <stdbool.h>

typedef struct verify_report {
    bool ok;
    long long bad_seq;       /* the first bad event (0 when ok) */
    char reason[300];        /* why it is bad, in words */
    long long events;        /* events checked */
    int commitments;         /* sealed choices whose reveal was checked */
    bool replayed;           /* the seed was revealed and the match replayed */
    int withheld;            /* events whose recorded hash was taken as it
                              * is: their public form withholds a mail
                              * address (public_event.h) */
} verify_report;

/* events: the array GET /v1/matches/{id}/events returns (borrowed), oldest
 * first, from seq 1. Fills *report. */
void verify_events(const json_t *events, verify_report *report);

/* Marks report as failed at event seq with a printf-style reason and
 * returns false, for checkers built on this one (export_check). */
bool verify_fail(verify_report *report, long long seq, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The report as JSON (new reference). */
json_t *verify_report_json(const verify_report *report);

#endif
