/* mail_commands.h: the commands a person writes in a mail, one per line,
 * applied in order through the same use cases as the HTTP routes, and
 * the answer they read back.
 *
 *   a move in the game's text notation   (a sealed choice the same way:
 *                                         the service seals it)
 *   view             your view and the moves you may make
 *   log [N]          what happened since your last turn, or the last N
 *   matches          your matches, with whose turn it is
 *   games            the games and their options
 *   help             this list
 *   vacation FROM UNTIL | vacation off
 *   nudge            remind the seats the match waits for
 *   say TEXT         a message to everyone at the table; "say to NAME
 *                    TEXT" to that player alone; the whole paragraph is
 *                    the message (mail_say.h)
 *   mute NAME, unmute NAME   read nothing more (or again) of what that
 *                    player writes, in every match (mail_say.h)
 *   settings digest on|off, settings email on|off,
 *   settings quiet HH:MM-HH:MM|off, settings zone Area/City,
 *   settings reminders H,H…|off, settings page on|off
 *   join             (answering an invitation) take a seat; "yes",
 *                    "OK!", "Count me in", "I'm in" say the same there
 *   new GAME seats=N [open=yes] [rated=no] [option=value …]
 *   list [GAME]      the open matches waiting for players (mail_lobby.h)
 *   join m_1234      take a free seat of that match (mail_lobby.h)
 *   seek GAME seats=N turn=1d, unseek   quick match (mail_lobby.h)
 *   ratings [GAME]   the game's top 10 and the asker's line
 *                    (mail_ratings.h)
 *   invite ADDRESS NAME   (about a match) invite someone by mail
 *   chat             a one-time code that links a Discord or Slack
 *                    account (play/chat_links.h)
 *
 * Case does not matter. A line that is neither a command nor a move of
 * the game ("Hi Carol, nice dig!") is answered "Not a move", never with a
 * rule about turns. The first refusal (a "Not a move" too) stops the
 * mail: the lines after it are not applied, and the answer says so. A
 * line "end" stops the reading, unless it is a move the sender may make
 * now (Quarriors' end of a turn): then it is that move, and the last.
 *
 * A move applied is told as the rules tell it (rules_tell: "You drew
 * mask and blue5. (event 7)"); a sealed choice as "Sealed: go auction.
 * Nobody sees it until everyone has chosen; waiting for Carol and Bob."
 *
 * Applying a line twice (the same message fetched again after a crash)
 * changes nothing: each line that changes something is a request whose
 * nonce is derived from the message and the line's number, so the second
 * time gets the first answer back (retry.h). */
#ifndef SERVICE_MAILIN_MAIL_COMMANDS_H
#define SERVICE_MAILIN_MAIL_COMMANDS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* Who is writing and about what, as mail_sender established it. */
typedef struct mail_context {
    long long player_id;     /* 0: not a player yet (help and games only) */
    long long match_id;      /* the match the answered mail was about, or 0 */
    long long invitation_id; /* answering an invitation, or 0 */
    const char *message_key; /* the message's idempotency key */
    json_t *via;             /* what events record of the mail (borrowed) */
} mail_context;

/* What running the commands came to. */
typedef struct mail_run {
    int applied;         /* lines that did what they asked */
    bool refused;        /* a line was refused (the rest were skipped) */
    bool changed;        /* something was changed (a move, a join, …) */
    int moves;           /* moves and sealed choices among the applied */
    long long match_id;  /* the match to show at the end, or 0 */
    long long player_id; /* who wrote it, once known ("join" makes one) */
} mail_run;

/* Runs every command of text for ctx, writing the answer's lines to out
 * (what each line did, then the view and moves of the match concerned, or
 * the refusal with the rule's sentence and what is legal instead). False
 * only when the database failed, so the whole message must be tried again
 * later (it is idempotent). */
bool mail_commands_run(const mail_context *ctx, const char *text, FILE *out,
                       mail_run *run);

/* Whether a line whose first word is word (any case) is read by the door
 * as one of its commands rather than as a move: the commands above and
 * "end". No game's move may start so, but "end" where it is a legal move
 * (see above); tests scan every engine's moves for it. */
bool mail_commands_is_door_word(const char *word);

/* The help text (also the answer to an empty mail). */
void mail_commands_help(FILE *out);

#endif
