/* player_client.h: what the player commands of pbem share: the server's
 * address, the player's key, one signed request, the one-sentence error,
 * and the exit codes every player command uses:
 *
 *   0 ok, 1 refused by the server (a rule, not your turn, …), 2 usage,
 *   3 the server could not be reached, 4 not set up (no key, not
 *   registered).
 */
#ifndef CLI_PLAYER_CLIENT_H
#define CLI_PLAYER_CLIENT_H

#include <jansson.h>
#include <stdbool.h>

#include "client.h"

enum {
    PLAYER_OK = 0,
    PLAYER_REFUSED = 1,
    PLAYER_USAGE = 2,
    PLAYER_UNREACHABLE = 3,
    PLAYER_NOT_SET_UP = 4,
};

typedef struct player_session {
    client *http;
    char url[200];
    client_key key;
    bool signed_requests; /* false: anonymous reads (games, watch) */
} player_session;

/* The server: PBEM_URL (pbem's global --url sets it), else
 * http://127.0.0.1:8080. */
const char *player_url(void);

/* What a command needs before it can send anything. */
typedef enum player_need {
    PLAYER_NEEDS_NOTHING,      /* anonymous reads: games, watch */
    PLAYER_NEEDS_KEY,          /* register */
    PLAYER_NEEDS_REGISTRATION, /* everything a seat does */
} player_need;

/* Opens a session with what need asks for loaded (exit code 4 after a
 * sentence when it is missing). Returns PLAYER_OK or an exit code. */
int player_open(player_session *s, player_need need);
void player_close(player_session *s);

/* Sends one request (signed when the session has a key); body may be
 * NULL, prefer adds "Prefer: return=representation". Returns PLAYER_OK
 * with out filled (any HTTP status) or PLAYER_UNREACHABLE after a
 * sentence. */
int player_send(player_session *s, const char *method, const char *path,
                const char *body, bool prefer, client_response *out);

/* For an answer that is not 2xx: prints the API's message (or the status)
 * as one sentence and returns PLAYER_REFUSED. */
int player_refused(const client_response *r);

/* The error code of an error answer, or "". */
const char *player_error_code(const client_response *r);

/* Sends and treats any non-2xx answer as refused: PLAYER_OK with out to
 * be freed by the caller, or an exit code after a sentence (out freed). */
int player_call(player_session *s, const char *method, const char *path,
                const char *body, client_response *out);

/* value's text, or "?" when it is not a string (an answer is not
 * trusted to hold what it should). */
const char *player_text(const json_t *value);

/* "/v1/matches/MATCH" followed by suffix into path (size bytes); false
 * after a sentence when MATCH is not a match id. */
bool player_match_path(char *path, size_t size, const char *match,
                       const char *suffix);

#endif
