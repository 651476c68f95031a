/* notify_digest.h: the daily digest email. A player who asked for one
 * (notification_settings.digest) gets their "your turn" emails queued with
 * outbox.digest set and due at their digest hour (notify_outbox.c); when
 * they fall due, the outbox worker calls this instead of sending them one
 * by one: every due digest row of a player is claimed (leased like any
 * row, so several processes never send the same digest), rendered into one
 * mail (templates/digest.*) listing each match once, sent over SMTP, and
 * the attempt recorded on every row it covers, with the same retries and
 * dead letters as single notifications. Rows about a turn the player has
 * taken meanwhile were cancelled before (store_outbox_cancel_pointless in
 * store/outbox.h). */
#ifndef SERVICE_NOTIFY_NOTIFY_DIGEST_H
#define SERVICE_NOTIFY_NOTIFY_DIGEST_H

#include <curl/curl.h>
#include <libpq-fe.h>

#include "core/worker.h"
#include "notify/notify_policy.h"

/* Sends the digests due now, for a few players at a time, one after the
 * other through the delivery loop (delivery.h) on multi: each waits for at
 * most the SMTP timeout, and when self is asked to stop, a digest in
 * flight is abandoned and its rows released (due now, no attempt
 * counted). Returns how many players it dealt with, or -1 on a database
 * error. */
int notify_digest_send(PGconn *conn, const notify_config *config,
                       CURLM *multi, worker *self);

#endif
