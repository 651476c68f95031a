/* play.h: how the move benchmarks (service, growth, moves_loop) play, like
 * a careful bot: who must move, a random legal move from a seat's view,
 * and a request that must get one status. */
#ifndef BENCH_PLAY_H
#define BENCH_PLAY_H

#include <jansson.h>
#include <stdbool.h>

#include "client.h"

/* The first seat a view, or a move's answer, says must act now. */
int bench_seat_to_move(const json_t *view_or_answer);

/* One of the view's legal moves at random, as the body of a move request
 * at the view's head ({"seq": …, "action": …}); malloc'd text. */
char *bench_random_move(const json_t *view);

/* Sends a signed request asking for the new state ("Prefer:
 * return=representation"); false, with error (256 bytes) saying what came
 * back, unless it answered expect. */
bool bench_call(client *c, const char *method, const char *path,
                const char *body, const client_key *key, long expect,
                client_response *r, char error[256]);

#endif
