/* chat_links.h: the one-time codes that link a chat user to a player
 * (migrations/020_chat_links.sql). A row keeps the BLAKE2b-256 digest of
 * its code, never the code; times are match time in unix seconds
 * (clock.h). The use case is play/chat_links.h. */
#ifndef SERVICE_STORE_CHAT_LINKS_H
#define SERVICE_STORE_CHAT_LINKS_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"

#define STORE_CHAT_LINK_DIGEST_BYTES 32

/* Records a code for player_id made at now, good until expires. */
bool store_chat_link_insert(PGconn *conn, long long player_id,
                            const uint8_t digest[STORE_CHAT_LINK_DIGEST_BYTES],
                            long long now, long long expires, apierr *err);

/* How many codes player_id asked for after since, or -1 with err. */
int store_chat_links_since(PGconn *conn, long long player_id, long long since,
                           apierr *err);

/* Spends the code whose digest is given, if it is unused and not expired
 * at now, for the chat user used_by, inside the caller's transaction:
 * *player_id is whose code it was, 0 when there is no such code to spend
 * (unknown, used or expired: the three look alike to a guesser). */
bool store_chat_link_spend(PGconn *conn,
                           const uint8_t digest[STORE_CHAT_LINK_DIGEST_BYTES],
                           long long now, const char *used_by,
                           long long *player_id, apierr *err);

#endif
