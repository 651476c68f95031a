/* chat_door.h: the commands a linked chat user runs, whatever the chat:
 * Discord and Slack only work out who is asking and what (chat_discord.h,
 * chat_slack.h); this runs it and says what came of it, as plain text a
 * person reads, which they then dress for their platform.
 *
 *   link CODE            link this chat user to the player who got CODE
 *   view [MATCH]         the seat's view and the moves it may make
 *   move [MATCH] TEXT    a move in the game's text notation
 *   log [MATCH] [N]      what happened since the seat's last turn
 *   matches              the player's matches, whose turn it is
 *   join MATCH           take a free seat in an open match
 *   new GAME [seats=N] [option=value …]
 *   list [GAME]          the open matches and the quick-match seeks waiting
 *   seek GAME seats=N [turn=1d] [expires=3d]
 *                        wait for a quick match (play/seeks.h)
 *   unseek [s_12]        withdraw that seek, or every one still waiting
 *   games, rules [GAME], help
 *
 * MATCH ("m_12") may be left out when the player plays one active match,
 * or is to move in exactly one. The lobby's verbs are the mail door's
 * (mailin/mail_lobby.h), told in the chat's words; the match a seek
 * finds is told to the player by their usual channels, as any seek's. Moves,
 * views and the log are the mail door's commands (mailin/mail_commands.h), run
 * with the chat user's link as the context, so a chat can do nothing a mail
 * could not; each move's event records in its request "via" the platform, the
 * chat user (a pseudonym: the log is public), the link (grant) and the
 * interaction. Every answer is private to the one who asked (an
 * ephemeral message): a view shows a hand. */
#ifndef SERVICE_CHAT_CHAT_DOOR_H
#define SERVICE_CHAT_CHAT_DOOR_H

#include <jansson.h>
#include <stdbool.h>

#include "core/apierr.h"

/* Who is asking, as the platform's signed request says. */
typedef struct chat_user {
    const char *platform; /* "discord" or "slack" */
    char key_id[65];      /* "discord:<id>", "slack:<team>:<id>" */
    char name[81];        /* their name in the chat (for the link) */
    char interaction[96]; /* the platform's id of this interaction */
} chat_user;

/* What to answer. */
typedef struct chat_reply {
    char *text;     /* plain text, malloc'd */
    char match[32]; /* the match it is about ("m_12"), or "" */
    bool refused;   /* the command was refused (text says why) */
} chat_reply;

/* Fills user->key_id from the platform's ids (team may be NULL): false
 * when an id is empty or not made of letters, digits, '_' and '-'. */
bool chat_door_user(chat_user *user, const char *platform, const char *team,
                    const char *id, const char *name);

/* Runs the command verb with its arguments (args may be NULL) for user,
 * filling reply (free with chat_door_reply_free). False only when the
 * database failed: the platform should be told to try again. */
bool chat_door_run(const chat_user *user, const char *verb, const char *args,
                   chat_reply *reply);

void chat_door_reply_free(chat_reply *reply);

/* How a platform writes an answer: its title and plain text as a new
 * JSON reference (chat_discord_message, chat_slack_message). */
typedef json_t *chat_door_format(const char *title, const char *text);

/* Runs the command as chat_door_run does and writes the reply with
 * format, titled "/pbem VERB [MATCH]": a new reference, or NULL with err
 * (503 "try_later") when the database failed. */
json_t *chat_door_answer(const chat_user *user, const char *verb,
                         const char *args, chat_door_format *format,
                         apierr *err);

/* The moves user's seat may make now in match_ref's match (NULL or "":
 * the one chat_door_run would choose) whose text starts with typed (any
 * case), at most max of them: a JSON array of strings (new reference;
 * empty when there is nothing to offer, never NULL). */
json_t *chat_door_moves(const chat_user *user, const char *match_ref,
                        const char *typed, int max);

/* For a turn notice's "Make a move": the moves user's seat may make now
 * in match_ref's match, at most max, none longer than chars bytes (a
 * platform's choice must hold the whole move; the rest are left to /pbem
 * move), as a JSON array of strings (new reference), *seat set to the
 * seat and reply's text saying what to do. NULL with reply's text saying
 * why (refused): not linked, or "Not your seat" when the user has no seat
 * there or nothing to do now. Free reply with chat_door_reply_free. */
json_t *chat_door_turn(const chat_user *user, const char *match_ref, int max,
                       size_t chars, int *seat, chat_reply *reply);

/* A move chosen from chat_door_turn's list for seat: played exactly as
 * "/pbem move MATCH MOVE" (chat_door_answer), when user's link plays seat
 * in match_ref; otherwise answered "Not your seat" and nothing moves. */
json_t *chat_door_play(const chat_user *user, const char *match_ref, int seat,
                       const char *move, chat_door_format *format, apierr *err);

/* The help text. */
const char *chat_door_help(void);

#endif
