/* caller.h: who is making a request, as auth established it. Every door
 * (a signed HTTP request, an admin's request, mail, a bot's delegated
 * key) fills one, and the use cases take it without knowing which door it
 * came through. Filled by auth_player / admin_check (auth.h, admin.h);
 * released with auth_caller_free. */
#ifndef SERVICE_AUTH_CALLER_H
#define SERVICE_AUTH_CALLER_H

#include <jansson.h>
#include <stdint.h>

typedef struct caller {
    long long player_id;         /* whom the request acts for */
    char key_id[257];            /* the key that signed it */
    long long delegate_id;       /* the grant under which key_id, a bot's
                                    key, acts for player_id (Pbem-On-
                                    Behalf-Of, auth/delegate.h); 0 when the
                                    player signed */
    char nonce[257];
    uint8_t request_digest[32];  /* binds the nonce to this exact request */
    json_t *signature;           /* signature material kept in move events
                                    (borrowed; may be NULL) */
} caller;

#endif
