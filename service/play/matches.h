/* matches.h: the match use cases behind the HTTP routes: create, join,
 * move, and the views. Each loads what it needs, asks the rules engine, and
 * appends events in one transaction (with the request's nonce, so a retried
 * request gets the stored answer, and outbox rows for whoever must act
 * next). Every function returns a new JSON answer, or NULL with err filled
 * (its status is the HTTP status). */
#ifndef SERVICE_MATCHES_H
#define SERVICE_MATCHES_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "auth/caller.h"
#include "core/apierr.h"

/* Snapshot every this many events. */
#define MATCHES_SNAPSHOT_EVERY 32

json_t *matches_games(void);
/* The public key a registration body names; 400 "bad_public_key" when it
 * is not one. */
bool matches_registration_key(const json_t *body, uint8_t public_key[32],
                              apierr *err);
/* Whether a player's name (1 to 80 bytes) and email (absent, null, or an
 * address of at most 254 bytes that cannot break a mail header) are
 * acceptable; 400 "bad_name" / "bad_email" otherwise. Registration and
 * import both check them. */
bool matches_player_fields_ok(const json_t *name, const json_t *email,
                              apierr *err);
/* Registers a player with public_key (matches_registration_key of body);
 * who is the registration's signature, by that key (auth_new_key). */
json_t *matches_register_player(const caller *who, const json_t *body,
                                const uint8_t public_key[32], apierr *err);
json_t *matches_create(const caller *who, const json_t *body, apierr *err);
json_t *matches_join(const caller *who, long long match_id,
                     const json_t *body, apierr *err);
/* Plays one move. with_seat_view (the client sent "Prefer:
 * return=representation") adds "seat_view", what GET /view would answer
 * now, so a client that moves again saves a request. */
json_t *matches_move(const caller *who, long long match_id,
                     const json_t *body, bool with_seat_view, apierr *err);
json_t *matches_public(long long match_id, apierr *err);
json_t *matches_seat_view(const caller *who, long long match_id, apierr *err);
json_t *matches_events(long long match_id, long long after, int limit,
                       apierr *err);

/* Drops every cached state (tests use it to force a replay). */
void matches_cache_clear(void);

#endif
