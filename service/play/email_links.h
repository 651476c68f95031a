/* email_links.h: an address belongs to an account only once a link
 * mailed to it was opened. Registering with an address (players.h), or
 * asking to add or change one (POST /v1/players/me/email), mails the
 * address a link, <PBEM_PUBLIC_URL>/confirm-email?token=<token> (a page,
 * the same as GET /v1/email-confirmations?token=<token>),
 * and nothing else: the account keeps the address it had (or none) until
 * the link is opened, so nobody can make the service mail a stranger by
 * typing their address, nor take over the mail door or the sign-in links
 * of an address they do not read. The link's page (GET) asks to press a
 * button, which POSTs: a mail scanner that follows links confirms
 * nothing. The token is 32 random bytes in unpadded base64url, kept only
 * as its BLAKE2b-256 digest (the outbox's copy of the mail loses it once
 * sent: migrations/016_email_confirmations.sql), good for
 * EMAIL_LINKS_HOURS of match time (clock.h), once. Past
 * EMAIL_LINKS_PER_HOUR links an hour for one address, no more mail goes
 * to it (the request is still answered the same: nobody learns from it
 * what others asked). */
#ifndef SERVICE_PLAY_EMAIL_LINKS_H
#define SERVICE_PLAY_EMAIL_LINKS_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "auth/caller.h"
#include "core/apierr.h"

#define EMAIL_LINKS_HOURS 48
#define EMAIL_LINKS_PER_HOUR 3

/* Mails email a link confirming it for player_id (named name), inside
 * the caller's transaction, unless the address has had its share this
 * hour (then nothing is mailed, and true). */
bool email_links_offer(PGconn *conn, long long player_id, const char *name,
                       const char *email, apierr *err);

/* POST /v1/players/me/email {"email"}: {"email": the account's address
 * now (or null), "email_pending": the address the link went to} (new
 * reference), 202; {"email"} alone when the address is the account's
 * already. 400 "bad_email" for a body without a usable address. */
json_t *email_links_request(const caller *who, const json_t *body, apierr *err);

/* GET /v1/email-confirmations?token=: the page with the button (HTML,
 * malloc'd), or NULL with err as email_links_confirm refuses. */
char *email_links_page(const char *token, apierr *err);

/* The page the link's button gets back (EMAIL_LINKS_PAGE_FIELD in its
 * form), from email_links_confirm's answer (HTML, malloc'd). */
char *email_links_confirmed_page(const json_t *confirmed);

/* The field of the page's form: its POST answers a page, not JSON. */
#define EMAIL_LINKS_PAGE_FIELD "then=page"

/* POST /v1/email-confirmations?token=: makes the link's address its
 * account's: {"status": "confirmed", "email", "player_id"} (new
 * reference). 400 "bad_email_token" (not the shape of one), 404
 * "unknown_email_token", 409 "email_token_spent", 410
 * "email_token_expired". */
json_t *email_links_confirm(const char *token, apierr *err);

#endif
