/* nudge.h: POST /v1/matches/{id}/nudge. Any seated player of an active
 * match may nudge the seats it is waiting for (never itself): each gets a
 * "nudge" notification on its channels, naming who nudged. A seat can be
 * nudged once per PBEM_NUDGE_HOURS (default 12) by anyone; a nudge inside
 * that window is 429 with Retry-After, so a nudge never becomes spam. */
#ifndef SERVICE_PLAY_NUDGE_H
#define SERVICE_PLAY_NUDGE_H

#include <jansson.h>

#include "core/apierr.h"
#include "auth/caller.h"

/* {"nudged": [seats], "seq": head}, or NULL with err filled: 403 not
 * seated, 404, 409 not in play / nobody else to wait for, 429. */
json_t *nudge_send(const caller *who, long long match_id, apierr *err);

#endif
