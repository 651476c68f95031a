/* log_marks.h: the marker events of a match's log, read by kind without
 * reading the events themselves: which seats forfeited ("forfeited"
 * events) and whether an admin rewound the match after a given event
 * ("rewound"). The log itself is read and written through store.h. */
#ifndef SERVICE_STORE_LOG_MARKS_H
#define SERVICE_STORE_LOG_MARKS_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"

/* The seats of match_id's "forfeited" events, a bit per seat in *seats
 * (0 on failure). False with err filled on a database error. */
bool store_log_marks_forfeited(PGconn *conn, long long match_id,
                               uint32_t *seats, apierr *err);

/* Whether match_id's log has a "rewound" event after event seq: 1 yes, 0
 * no, -1 with err filled. */
int store_log_marks_rewound_after(PGconn *conn, long long match_id,
                                  long long seq, apierr *err);

#endif
