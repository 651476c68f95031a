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
 * A pattern holds at most one text id besides its match id. */
#ifndef SERVICE_HTTP_PATH_H
#define SERVICE_HTTP_PATH_H

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

/* Matches path against pattern, filling *params (which may point into
 * path, so it lives as long as path) when it does. */
path_result path_match(const char *pattern, const char *path,
                       path_params *params);

#endif
