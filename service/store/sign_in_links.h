/* sign_in_links.h: the rows of the sign-in links mailed to players
 * (migrations/011_sign_in.sql). A row keeps the BLAKE2b-256 digest of the
 * link's token, never the token; times are match time in unix seconds
 * (clock.h). The use case is play/sign_in.h. */
#ifndef SERVICE_STORE_SIGN_IN_LINKS_H
#define SERVICE_STORE_SIGN_IN_LINKS_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"

#define SIGN_IN_DIGEST_BYTES 32

typedef struct store_sign_in_link {
    long long link_id;
    long long player_id;
    long long expires; /* unix seconds */
    bool spent;
} store_sign_in_link;

/* How many links were made for email (case aside) after since, or -1
 * with err filled. */
int store_sign_in_links_since(PGconn *conn, const char *email,
                              long long since, apierr *err);

/* Records a link for player_id at email, made at now, good until expires,
 * inside the caller's transaction; rows of that address older than a day
 * go, as nothing counts them any more. */
bool store_sign_in_links_insert(PGconn *conn, const char *email,
                                long long player_id,
                                const uint8_t digest[SIGN_IN_DIGEST_BYTES],
                                long long now, long long expires,
                                apierr *err);

/* Finds the link whose token has digest and locks it until the caller's
 * transaction ends; *found false when there is none. */
bool store_sign_in_links_find(PGconn *conn,
                              const uint8_t digest[SIGN_IN_DIGEST_BYTES],
                              store_sign_in_link *link, bool *found,
                              apierr *err);

/* Marks link_id spent at now by key_id, inside the caller's transaction. */
bool store_sign_in_links_spend(PGconn *conn, long long link_id, long long now,
                               const char *key_id, apierr *err);

#endif
