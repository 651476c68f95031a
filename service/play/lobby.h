/* lobby.h: open matches, the lobby where strangers find each other
 * (docs/lobby.md).
 *
 * A match is created invite-only (as always: it is joined by whoever is
 * given its id, and listed nowhere) or open (POST /v1/matches with
 * "open": true): listed by GET /v1/matches?status=forming&game=… until
 * its last seat is taken, which starts it as every join does. "rated"
 * (default: as "open") makes its result move the players' ratings
 * (ratings.h); "min_reliability" (0 to 1) refuses joiners who missed more
 * of their latest turns than that allows (403 "unreliable"). */
#ifndef SERVICE_PLAY_LOBBY_H
#define SERVICE_PLAY_LOBBY_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"
#include "rules.h"
#include "store/lobby.h"
#include "store/matches.h"

/* The latest matches a player's reliability is reckoned over. */
#define LOBBY_RELIABILITY_MATCHES 20

/* At most this many matches in one listing (and its default). */
#define LOBBY_LIST_MAX 100
#define LOBBY_LIST_DEFAULT 50

/* The game called name, or NULL with err filled: status (400 for a
 * query, 404 for a path) "unknown_game", pointing to GET /v1/games. */
const rules_engine *lobby_game(const char *name, int status, apierr *err);

/* Reads "open", "rated" and "min_reliability" from a create request's
 * body into *out; 400 "bad_lobby" with the sentence naming the member. */
bool lobby_settings_parse(const json_t *body, store_lobby *out, apierr *err);

/* The settings as the match's answers show them (a new reference). */
json_t *lobby_settings_json(const store_lobby *settings);

/* Whether player_id may take a seat in match: 403 "unreliable" when the
 * match asks for a reliability the player's latest turns fall short of.
 * A player with no turn behind them yet may join. */
bool lobby_may_join(PGconn *conn, const store_match *match, long long player_id,
                    apierr *err);

/* A player's reliability: the share of their latest turns taken before
 * the deadline (0 to 1), or a negative number when they have had no
 * turn with a deadline yet; -2 with err filled on a database error. */
double lobby_reliability(PGconn *conn, long long player_id, apierr *err);

/* GET /v1/matches?status=forming&game=…&limit=…: the open matches still
 * forming, newest first: {"matches": [{"id", "game", "title", "options",
 * "seats", "seats_taken", "deadline", "rated", "min_reliability",
 * "creator": {"player", "name", "rating", "deviation", "reliability"},
 * "created_at"}]}. status NULL means forming; game NULL every game.
 * 400 bad_query or unknown_game. */
json_t *lobby_list(const char *status, const char *game, int limit,
                   apierr *err);

#endif
