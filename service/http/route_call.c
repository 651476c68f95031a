/* route_call.c: a handler's reads of the request. */
#include "http/route_call.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *route_query(const route_call *call, const char *name)
{
    return MHD_lookup_connection_value(call->conn, MHD_GET_ARGUMENT_KIND, name);
}

long long route_query_number(const route_call *call, const char *name,
                             long long fallback, bool *bad)
{
    const char *text = route_query(call, name);
    if (text == NULL)
        return fallback;
    char *end = NULL;
    long long value = strtoll(text, &end, 10);
    if (*text == '\0' || *end != '\0' || value < 0)
        *bad = true;
    return value;
}

static enum MHD_Result find_representation(void *found, enum MHD_ValueKind kind,
                                           const char *name, const char *value)
{
    (void)kind;
    if (strcasecmp(name, "prefer") != 0 || value == NULL)
        return MHD_YES;
    /* Preferences are token[=value] separated by commas; tokens and this
     * value are case-insensitive, the value may be quoted. */
    char lower[512];
    size_t n = 0;
    for (const char *p = value; *p != '\0' && n + 1 < sizeof lower; p++) {
        if (*p != ' ' && *p != '\t' && *p != '"')
            lower[n++] = (char)tolower((unsigned char)*p);
    }
    lower[n] = '\0';
    for (const char *p = lower;
         (p = strstr(p, "return=representation")) != NULL; p++) {
        bool starts = p == lower || p[-1] == ',';
        char after = p[sizeof "return=representation" - 1];
        if (starts && (after == '\0' || after == ',' || after == ';')) {
            *(bool *)found = true;
            return MHD_NO;
        }
    }
    return MHD_YES;
}

bool route_prefers_representation(const route_call *call)
{
    bool found = false;
    MHD_get_connection_values(call->conn, MHD_HEADER_KIND, find_representation,
                              &found);
    return found;
}
