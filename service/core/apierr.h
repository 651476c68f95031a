/* apierr.h: the service's one error value. Every layer below the HTTP
 * handlers fills one of these, and every handler ends by turning it into
 * the same JSON body: {"error": {"code": "...", "message": "..."}}. */
#ifndef SERVICE_CORE_APIERR_H
#define SERVICE_CORE_APIERR_H

#include <stdbool.h>

typedef struct apierr {
    int status;          /* HTTP status to answer with */
    char code[40];       /* stable machine code: "stale_seq", "illegal_move" */
    char message[320];   /* a sentence a person understands */
    long long head;      /* for stale_seq: the match's current head, else -1 */
    long long retry_after; /* for 429: seconds until a retry may succeed, else 0 */
} apierr;

/* Fills err and returns false, so checks read: return apierr_set(...); */
bool apierr_set(apierr *err, int status, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
