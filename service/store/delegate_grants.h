/* delegate_grants.h: the rows of the delegates table, a player's grants
 * to bots' keys (play/delegates.h makes and lists them, auth/delegate.h
 * checks a bot's request against them). A grant names the bot's Ed25519
 * key, what it may do (scope), in which matches, until when, whether the
 * player has revoked it, and keeps the player's signed request that made
 * it. Times are match time (core/clock.h), in unix seconds. */
#ifndef SERVICE_STORE_DELEGATE_GRANTS_H
#define SERVICE_STORE_DELEGATE_GRANTS_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"

/* What a grant allows, as bits of store_grant.scope. */
#define STORE_GRANT_VIEW 1u
#define STORE_GRANT_MOVE 2u
#define STORE_GRANT_JOIN 4u

/* A grant covers at most this many matches by id (or all of them). */
#define STORE_GRANT_MATCHES_MAX 100

typedef struct store_grant {
    long long delegate_id;
    long long player_id;
    char key_id[65];
    uint8_t public_key[32];
    char name[81];
    unsigned scope;
    bool all_matches;
    int match_count;
    long long match_ids[STORE_GRANT_MATCHES_MAX];
    long long expires;
    long long created;
    long long revoked; /* 0: in force */
} store_grant;

/* "d_<n>", the public id of a grant; parsing returns 0 for anything else. */
void store_grant_ref(long long delegate_id, char out[32]);
long long store_parse_grant_ref(const char *text);

/* Inserts *grant (its delegate_id and created are set) with the signed
 * request that made it (JSON text), inside the caller's transaction. */
bool store_grant_insert(PGconn *conn, store_grant *grant,
                        const char *grant_request, apierr *err);

/* The number of grants of player_id not revoked nor expired at now. -1
 * with err on a database failure. */
int store_grants_in_force(PGconn *conn, long long player_id, long long now,
                          apierr *err);

/* The grants player_id made to key_id, newest first, at most max of them
 * into out. Their count, or -1 with err. */
int store_grants_of_key(PGconn *conn, const char *key_id, long long player_id,
                        store_grant *out, int max, apierr *err);

/* Every player's grants to key_id (a chat user's links: auth/chat_user.h),
 * newest first, at most max. Their count, or -1 with err. */
int store_grants_for_key(PGconn *conn, const char *key_id, store_grant *out,
                         int max, apierr *err);

/* The grants of player_id, newest first, at most max. Their count, or -1
 * with err. */
int store_grants_of_player(PGconn *conn, long long player_id,
                           store_grant *out, int max, apierr *err);

/* Recreates a grant an export carries (an import), under its own id
 * (delegate_id set) with its signed request, inside the caller's
 * transaction, and moves the id sequence past it. 1 when it is stored or
 * was there already, the same; 0 when another grant holds that id; -1
 * with err. */
int store_grant_import(PGconn *conn, const store_grant *grant,
                       const char *grant_request, apierr *err);

/* Revokes one of player_id's grants at now (a grant already revoked keeps
 * its first revocation time): 1 done, 0 the player has no such grant, -1
 * with err. */
int store_grant_revoke(PGconn *conn, long long player_id,
                       long long delegate_id, long long now, apierr *err);

/* The grants the events of match_id up to head were made under
 * (data.delegate.grant), by id, as an export carries them. The caller
 * PQclears the result: rows of delegate_id, player_id, key_id, name, the
 * player's signed request body and the whole request (JSON text), and
 * revoked_at (RFC 3339 UTC, NULL: in force). NULL with err filled. */
PGresult *store_grants_of_match(PGconn *conn, long long match_id,
                                long long head, apierr *err);

#endif
