/* mail_lobby.h: the lobby's commands in a mail (docs/playing-by-email.md):
 *
 *   list [GAME]      the open matches waiting for players, and the
 *                    quick-match seeks waiting (naming nobody)
 *   join m_123       take a free seat of that match (an open one, or one
 *                    whose id someone gave you)
 *   seek GAME seats=3 turn=1d [expires=3d]
 *                    wait for a quick match (play/seeks.h)
 *   unseek [s_12]    withdraw that seek, or every one still waiting
 *
 * They call the same use cases as GET /v1/matches and POST
 * /v1/matches/{id}/join. mail_commands.c runs them: mail_lobby_call does
 * what a line asks, mail_lobby_tell writes its answer for a person. */
#ifndef SERVICE_MAILIN_MAIL_LOBBY_H
#define SERVICE_MAILIN_MAIL_LOBBY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "auth/caller.h"
#include "core/apierr.h"
#include "rules.h"

/* At most this many matches in a mailed list. */
#define MAIL_LOBBY_LIST_MAX 20

/* The game words[0..count) name: its name (antiquity_quest) or its
 * title in any case ("antiquity quest"); NULL when they name none. */
const rules_engine *mail_lobby_game_named(char *const *words, int count);

/* Whether the line whose words are words[0..count) changes something
 * (then it runs once per message line: retry.h), or only reads. */
bool mail_lobby_changes(char *const *words, int count);

/* Does what the line asks for who (player_id, its request): the use
 * case's answer (a new reference), or NULL with err filled (a refusal a
 * person reads, or 5xx). */
json_t *mail_lobby_call(const caller *who, char *const *words, int count,
                        apierr *err);

/* One open match of a list's answer on a line of out: "m_12  Antiquity
 * Quest, 1 of 3 seats taken, 24 h turns, rated; by Alice (rating 1523,
 * 95% of turns in time)". The chat door lists them so too. */
void mail_lobby_tell_open_match(const json_t *row, FILE *out);

/* Writes the answer of mail_lobby_call to out as a person reads it; the
 * match the line was about (a join), or 0. */
long long mail_lobby_tell(char *const *words, int count, const json_t *answer,
                          FILE *out);

#endif
