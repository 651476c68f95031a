/* players.h: registering a player: a name, an optional email address and
 * the Ed25519 public key their requests will be signed with. */
#ifndef SERVICE_PLAY_PLAYERS_H
#define SERVICE_PLAY_PLAYERS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "auth/caller.h"
#include "core/apierr.h"
#include "core/names.h"
#include "store/matches.h"

/* The public key a registration body names; 400 "bad_public_key" when it
 * is not one. */
bool players_registration_key(const json_t *body, uint8_t public_key[32],
                              apierr *err);

/* Whether name is a JSON string fit to show to others as a player's name:
 * 1 to 80 bytes, no NUL, no control character (C0, C1, DEL, U+2028,
 * U+2029) and no bidi embedding, override or isolate (U+202A-U+202E,
 * U+2066-U+2069). Registration, import and invitations all ask it. */
bool players_name_ok(const json_t *name);

/* Whether a player's name (players_name_ok) and email (absent, null, or an
 * address of at most 254 bytes that cannot break a mail header) are
 * acceptable; 400 "bad_name" / "bad_email" otherwise. Registration and
 * import both check them. */
bool players_fields_ok(const json_t *name, const json_t *email, apierr *err);

/* The normal form of a new player's name (core/names.h: NFC, white
 * space at either end dropped, 1 to NAMES_MAX_CHARS characters that all
 * show) into out; 400 "bad_name" saying the rule otherwise. Registration,
 * invitations and the mail door's new players take it; an import keeps
 * the names it brings (players_fields_ok). */
bool players_name_normal(const json_t *name, char out[NAMES_MAX_BYTES],
                         apierr *err);

/* Whether a player named name may sit in match beside its seated players
 * (all but player_id): false with 422 "confusable_name" naming the seat
 * whose player's name could be taken for it (names_confusable). what is
 * "your name" or "the name". */
bool players_name_fits_match(const char *name, const char *what,
                             long long player_id, const store_match *match,
                             apierr *err);

/* Registers a player with public_key (players_registration_key of body)
 * under the normal form of its name (players_name_normal); an "email"
 * is mailed a confirmation link (email_links.h) and becomes the
 * account's only once it is opened: the answer {"id", "name", "key_id",
 * "email": null, "email_pending"?} says so;
 * who is the registration's signature, by that key (auth_new_key). The
 * answer is stored with the nonce. A new answer, or NULL with err. */
json_t *players_register(const caller *who, const json_t *body,
                         const uint8_t public_key[32], apierr *err);

#endif
