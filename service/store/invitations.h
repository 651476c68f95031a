/* invitations.h: the invitations players send by mail to join a match
 * (migrations/009_mail.sql): the row the inviter's request makes, the
 * player an answer to it makes or finds (kept on the row, so that two
 * answers make one player), and its acceptance. The use cases are
 * play/invitations.h and mailin/mail_join.h. */
#ifndef SERVICE_STORE_INVITATIONS_H
#define SERVICE_STORE_INVITATIONS_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/apierr.h"

typedef struct store_invitation {
    long long match_id;
    char email[255];
    char name[81];
    long long player_id; /* 0 until an answer made or found one */
} store_invitation;

/* Inserts invitation_id (the caller's random id) to match_id for email
 * and name, sent by invited_by, inside the caller's transaction. */
bool store_invitations_insert(PGconn *conn, long long invitation_id,
                              long long match_id, const char *email,
                              const char *name, long long invited_by,
                              apierr *err);

/* Reads invitation_id into *out and holds its row (FOR UPDATE) until the
 * caller's transaction ends; *found false when there is none (the match
 * was deleted). */
bool store_invitations_lock(PGconn *conn, long long invitation_id,
                            store_invitation *out, bool *found, apierr *err);

/* Keeps player_id, made or found for the invitation's address, on it. */
bool store_invitations_set_player(PGconn *conn, long long invitation_id,
                                  long long player_id, apierr *err);

/* Marks invitation_id accepted now, unless it was already. */
bool store_invitations_accept(PGconn *conn, long long invitation_id,
                              apierr *err);

/* The address invitation_id was sent to into email (size bytes; "" when
 * there is no such invitation) and its player (*player_id, 0 when none
 * yet). */
bool store_invitations_address(PGconn *conn, long long invitation_id,
                               char *email, size_t size, long long *player_id,
                               apierr *err);

#endif
