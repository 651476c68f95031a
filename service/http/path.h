/* path.h: a request path against a route pattern such as
 * "/v1/matches/{id}/decisions/{decision}/commit".
 *
 * Text outside braces must match exactly. What a {placeholder} accepts is
 * named by the collection it follows, as in the API's own words:
 *   matches/{id}        a match ref (m_1234), one segment
 *   decisions/{...}     a decision id, one segment of 1 to 63 characters
 *   seats/{...}         a seat number, 0 to 1000, one segment
 *   notifications/{...} an outbox id of 1 to 63 characters, up to the
 *                       rest of the pattern (it may hold slashes)
 *   anything else       the rest of the path, as the use case gets it to
 *                       judge (vacation and webhook ids; may be empty)
 * A pattern holds at most one text id besides its match id.
 *
 * A path has one spelling: a dot segment never matches, and a target whose
 * path needed decoding (percent-escapes, an escaped NUL) is not canonical,
 * so the path a client signed is the path that was served and the one an
 * export check rebuilds. */
#ifndef SERVICE_HTTP_PATH_H
#define SERVICE_HTTP_PATH_H

#include <stdbool.h>

#define PATH_ID_MAX 64

/* The values a matched path gave its placeholders. */
typedef struct path_params {
    long long match_id; /* matches/{id} */
    int seat;           /* seats/{seat} */
    const char *id;     /* any other id: into id_text or the path */
    char id_text[PATH_ID_MAX];
} path_params;

typedef enum path_result {
    PATH_MATCHES,
    PATH_DIFFERS,
    /* The path has the pattern's shape up to an id that cannot be one:
     * clients are told which id is wrong rather than "no such resource". */
    PATH_NO_SUCH_MATCH,
    PATH_NO_SUCH_DECISION,
} path_result;

/* Whether target (the raw request target, query included) spells its path
 * exactly as decoded (the server's decoding of it), with no escape and no
 * dot segment. */
bool path_is_canonical(const char *decoded, const char *target);

/* Matches path against pattern, filling *params (which may point into
 * path, so it lives as long as path) when it does. */
path_result path_match(const char *pattern, const char *path,
                       path_params *params);

#endif
