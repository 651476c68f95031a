/* path.c: route patterns with placeholders, matched one character at a
 * time: there are few routes and paths are short. */
#include "http/path.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

typedef enum placeholder {
    MATCH_REF,
    DECISION_ID,
    SEAT,
    OUTBOX_ID,
    REST_OF_PATH,
} placeholder;

static const struct {
    const char *collection;
    placeholder kind;
} collections[] = {
    {"/matches/", MATCH_REF},
    {"/decisions/", DECISION_ID},
    {"/seats/", SEAT},
    {"/notifications/", OUTBOX_ID},
};

/* The kind of the placeholder at brace, named by the collection the
 * pattern (starting at pattern) names before it. */
static placeholder kind_at(const char *pattern, const char *brace)
{
    size_t before = (size_t)(brace - pattern);
    for (size_t i = 0; i < sizeof collections / sizeof *collections; i++) {
        size_t n = strlen(collections[i].collection);
        if (before >= n && memcmp(brace - n, collections[i].collection, n) == 0)
            return collections[i].kind;
    }
    return REST_OF_PATH;
}

/* Takes the placeholder's value from the start of path, given the rest of
 * the pattern after it; *taken is how much of path it took. */
static path_result take(placeholder kind, const char *path, const char *after,
                        path_params *params, size_t *taken)
{
    size_t segment = strcspn(path, "/");
    switch (kind) {
    case MATCH_REF: {
        char ref[32];
        if (segment >= sizeof ref)
            return PATH_NO_SUCH_MATCH;
        memcpy(ref, path, segment);
        ref[segment] = '\0';
        params->match_id = store_parse_match_ref(ref);
        if (params->match_id <= 0)
            return PATH_NO_SUCH_MATCH;
        *taken = segment;
        return PATH_MATCHES;
    }
    case DECISION_ID:
        if (segment == 0 || segment >= PATH_ID_MAX)
            return PATH_NO_SUCH_DECISION;
        memcpy(params->id_text, path, segment);
        params->id_text[segment] = '\0';
        params->id = params->id_text;
        *taken = segment;
        return PATH_MATCHES;
    case SEAT: {
        /* Digits only, no leading zero: "+2" and "02" would name seat 2
         * under a spelling the export check does not rebuild. */
        if (segment == 0 || segment > 4 ||
            strspn(path, "0123456789") < segment ||
            (path[0] == '0' && segment > 1))
            return PATH_DIFFERS;
        long seat = strtol(path, NULL, 10);
        if (seat > 1000)
            return PATH_DIFFERS;
        params->seat = (int)seat;
        *taken = segment;
        return PATH_MATCHES;
    }
    case OUTBOX_ID: {
        /* The rest of the pattern is plain text ending the path. */
        size_t len = strlen(path);
        size_t tail = strlen(after);
        if (len <= tail || len - tail >= PATH_ID_MAX ||
            strcmp(path + len - tail, after) != 0)
            return PATH_DIFFERS;
        memcpy(params->id_text, path, len - tail);
        params->id_text[len - tail] = '\0';
        params->id = params->id_text;
        *taken = len - tail;
        return PATH_MATCHES;
    }
    case REST_OF_PATH: {
        /* Up to the pattern's plain text after it, when there is some
         * ("/v1/games/{game}/ratings"). */
        size_t len = strlen(path), tail = strlen(after);
        if (tail > 0 && (len <= tail || strchr(after, '{') != NULL ||
                         strcmp(path + len - tail, after) != 0))
            return PATH_DIFFERS;
        if (tail > 0) {
            if (len - tail >= PATH_ID_MAX)
                return PATH_DIFFERS;
            memcpy(params->id_text, path, len - tail);
            params->id_text[len - tail] = '\0';
            params->id = params->id_text;
        } else {
            params->id = path;
        }
        *taken = len - tail;
        return PATH_MATCHES;
    }
    }
    abort();
}

/* A segment "." or "..": a client or proxy may resolve it away, so the
 * path it signed would not be the path that was served. */
static bool has_dot_segment(const char *path)
{
    for (const char *s = path; s != NULL; s = strchr(s + 1, '/')) {
        const char *segment = *s == '/' ? s + 1 : s;
        size_t len = strcspn(segment, "/");
        if ((len == 1 && segment[0] == '.') ||
            (len == 2 && segment[0] == '.' && segment[1] == '.'))
            return true;
    }
    return false;
}

bool path_is_canonical(const char *decoded, const char *target)
{
    size_t len = strcspn(target, "?");
    return strlen(decoded) == len && memcmp(decoded, target, len) == 0 &&
           !has_dot_segment(decoded);
}

path_result path_match(const char *pattern, const char *path,
                       path_params *params)
{
    memset(params, 0, sizeof *params);
    if (has_dot_segment(path))
        return PATH_DIFFERS;
    const char *p = pattern;
    const char *s = path;
    while (*p != '\0') {
        if (*p != '{') {
            if (*s != *p)
                return PATH_DIFFERS;
            p++;
            s++;
            continue;
        }
        const char *close = strchr(p, '}');
        if (close == NULL)
            abort(); /* a malformed pattern in the route table */
        size_t taken = 0;
        path_result r = take(kind_at(pattern, p), s, close + 1, params, &taken);
        if (r != PATH_MATCHES)
            return r;
        s += taken;
        p = close + 1;
    }
    return *s == '\0' ? PATH_MATCHES : PATH_DIFFERS;
}
