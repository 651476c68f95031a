/* sealed_choices.h: the sealed choices of a match's secret decisions, as
 * stored. play/decisions.h commits and reveals them; this is the one read
 * that the views, nudges and imports share with it. */
#ifndef SERVICE_STORE_SEALED_CHOICES_H
#define SERVICE_STORE_SEALED_CHOICES_H

#include <libpq-fe.h>
#include <stdint.h>

/* The seats that have committed to decision (a bit per seat); 0 when none
 * or on a database error. */
uint32_t sealed_choices_committed(PGconn *conn, long long match_id,
                                  const char *decision);

/* The seats whose own commitment (client commit-reveal) to decision is
 * not revealed yet (a bit per seat); 0 when none or on a database error. */
uint32_t sealed_choices_unrevealed(PGconn *conn, long long match_id,
                                   const char *decision);

#endif
