/* mail_say.h: "say", talk at the table by mail. A paragraph whose first
 * word is "say" is a message to everyone at the table; "say to NAME" (a
 * seated player's name, any case) a private one to that player:
 *
 *   say Good luck, everyone!
 *
 *   say to Bob: shall we
 *   gang up on Carol?
 *
 * The message is the rest of the first line and the paragraph's
 * following lines, up to a blank line; it goes through the same use case
 * as POST /v1/matches/{id}/messages (play/messages.h), so it meets the
 * same limits. A name that sits at no seat is refused, never written to
 * everyone instead.
 *
 * "mute NAME" and "unmute NAME" (a seated player of the match the mail is
 * about) stop and restart what that player writes reaching the writer,
 * in every match, as PUT and DELETE /v1/matches/{id}/mutes/{seat} do. */
#ifndef SERVICE_MAILIN_MAIL_SAY_H
#define SERVICE_MAILIN_MAIL_SAY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "auth/caller.h"
#include "core/apierr.h"

/* A copy of text (malloc'd) in which each paragraph that starts with a
 * line "say …" is one line: its line breaks become CR, which a mail's
 * written part never holds (mail_text.h makes every CR a LF), so the door
 * reads the paragraph as one command line; mail_say_post turns them back.
 * Out of memory aborts. */
char *mail_say_paragraphs(const char *text);

/* The length of line's first line (up to its first CR): what the answer
 * quotes of a say paragraph. */
int mail_say_first_line(const char *line);

/* Posts the message line ("say …", as mail_say_paragraphs made it) from
 * who in match_id: the use case's answer (new reference), or NULL with
 * err filled (its refusals, and 422 when the name after "to" sits at no
 * seat). */
json_t *mail_say_post(const caller *who, long long match_id, const char *line,
                      apierr *err);

/* Writes what a posted message (mail_say_post's answer) did: "Message
 * sent to everyone at the table." or "… privately to Bob.". */
void mail_say_tell(FILE *out, const json_t *answer);

/* Mutes (muted true) or unmutes the player line names ("mute Bob",
 * "unmute Bob") for who in match_id: the use case's answer (new
 * reference), or NULL with err filled (422 when no seated player has that
 * name, or it is who's own). */
json_t *mail_say_mute(const caller *who, long long match_id, const char *line,
                      bool muted, apierr *err);

/* Writes what a mute (mail_say_mute's answer) did, in words. */
void mail_say_tell_mute(FILE *out, const json_t *answer);

#endif
