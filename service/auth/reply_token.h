/* reply_token.h: single-use reply addresses, the email door's proof of
 * mailbox possession.
 *
 * Every mail the service sends to a person carries Reply-To:
 * <local>+<token>@<domain> (PBEM_MAIL_REPLY_TO=local@domain). The token
 * says what the mail was about (a seat in a match, the player's account,
 * an invitation, an address waiting for confirmation) and until when an
 * answer is accepted, and carries a keyed BLAKE2b MAC over all of it, so
 * nobody can make one without the service key. A reply is believed only
 * when its token reads back here and its sender is the address the mail
 * went to (the caller checks that); the mailin/ handler spends each token
 * once (mail_tokens_spent).
 *
 * The token is 52 lower-case base32 characters: kind (1 byte), subject
 * (8), match (8), seat (1, 255: none), expiry in hours since 2020 (3), a
 * random nonce (3) and the MAC (8) over the 24 bytes before it. The MAC's
 * hex is the token's id, recorded in the events it authorises. */
#ifndef SERVICE_AUTH_REPLY_TOKEN_H
#define SERVICE_AUTH_REPLY_TOKEN_H

#include <stdbool.h>
#include <stddef.h>

#define REPLY_TOKEN_CHARS 52
#define REPLY_TOKEN_ID_CHARS 16

typedef enum reply_token_kind {
    REPLY_TOKEN_SEAT = 1,         /* subject: player; match and seat set */
    REPLY_TOKEN_ACCOUNT = 2,      /* subject: player; no match */
    REPLY_TOKEN_INVITATION = 3,   /* subject: invitation id; match set */
    REPLY_TOKEN_CONFIRMATION = 4, /* subject: confirmation id; no match */
} reply_token_kind;

typedef struct reply_token {
    reply_token_kind kind;
    long long subject;
    long long match_id;  /* 0: none */
    int seat;            /* -1: none */
    long long expires;   /* unix seconds */
    char id[REPLY_TOKEN_ID_CHARS + 1];
} reply_token;

/* A new token (text: REPLY_TOKEN_CHARS + 1 bytes) valid from now for
 * PBEM_MAIL_TOKEN_DAYS days (30 by default). Needs the service key
 * (seal_load_key). */
void reply_token_make(reply_token_kind kind, long long subject,
                      long long match_id, int seat, long long now,
                      char text[REPLY_TOKEN_CHARS + 1]);

/* Reads a token: false with why filled ("this reply address is not one of
 * ours", "this reply address expired on 2026-12-01") when it is malformed,
 * its MAC does not match (compared in constant time) or it has expired at
 * now. Upper and lower case are the same. */
bool reply_token_read(const char *text, long long now, reply_token *out,
                      char *why, size_t why_size);

/* The reply address for token ("pbem+<token>@example.org") in out; false
 * when PBEM_MAIL_REPLY_TO is not set or out is too small. */
bool reply_token_address(const char *token, char *out, size_t size);

/* The service's bare address (PBEM_MAIL_REPLY_TO), or NULL when unset. */
const char *reply_token_bare_address(void);

/* When address is one of ours (the bare address's local part, '+', a token,
 * the same domain; case-insensitive), copies the token to token and
 * returns true; a bare address gives true with token "". */
bool reply_token_in_address(const char *address,
                            char token[REPLY_TOKEN_CHARS + 1]);

#endif
