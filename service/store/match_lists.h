/* match_lists.h: lists of matches as a player sees them: the matches a
 * player sits in, and who sits in the seats of a set of matches
 * (play/my_matches.h makes the player's list of them). */
#ifndef SERVICE_STORE_MATCH_LISTS_H
#define SERVICE_STORE_MATCH_LISTS_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* One match of a player's list, with the seat the player holds there. */
typedef struct store_listed_match {
    long long match_id;
    char game[64];
    char status[16];
    int seat;
    long long head_seq;
    char updated_at[32]; /* RFC 3339 UTC */
} store_listed_match;

/* The matches player_id sits in, with status (NULL: any), at most max:
 * the active ones make the cut first, then the most recently changed;
 * listed latest change first. A malloc'd array the caller frees (NULL
 * when there are none), its length in *count; false with err filled. */
bool store_match_lists_of_player(PGconn *conn, long long player_id,
                                 const char *status, int max,
                                 store_listed_match **out, int *count,
                                 apierr *err);

/* Who sits in the matches ids[0..count): a new object from each match's
 * id in decimal to its taken seats in order, [{"seat", "name"}] (a match
 * with none is absent); NULL with err filled. */
json_t *store_match_lists_seat_names(PGconn *conn, const long long *ids,
                                     int count, apierr *err);

#endif
