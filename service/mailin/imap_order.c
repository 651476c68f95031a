/* imap_order.c: see imap_order.h. */
#include "mailin/imap_order.h"

#include <ctype.h>
#include <stdbool.h>
#include <strings.h>

/* FNV-1a over the address, folded to lower case. */
static uint64_t fold(uint64_t hash, unsigned char c)
{
    hash ^= (uint64_t)tolower(c);
    return hash * 1099511628211ULL;
}

/* The From header's value runs from p to the end of its last folded line.
 * The address is what stands between < and > outside quotes and comments;
 * without angle brackets, the whole value without them (and spaces). */
static uint64_t address_key(const char *p, const char *end)
{
    const char *value_end = p;
    while (value_end < end) {
        if (*value_end == '\n' &&
            !(value_end + 1 < end &&
              (value_end[1] == ' ' || value_end[1] == '\t')))
            break;
        value_end++;
    }
    uint64_t whole = 14695981039346656037ULL, angle = whole;
    bool quoted = false, inside = false, bracketed = false;
    int comment = 0;
    for (; p < value_end; p++) {
        unsigned char c = (unsigned char)*p;
        if (quoted) {
            if (c == '\\' && p + 1 < value_end)
                p++;
            else if (c == '"')
                quoted = false;
        } else if (comment > 0) {
            comment += c == '(' ? 1 : c == ')' ? -1 : 0;
        } else if (c == '"') {
            quoted = true;
        } else if (c == '(') {
            comment = 1;
        } else if (c == '<' && !bracketed) {
            inside = true;
        } else if (c == '>' && inside) {
            inside = false;
            bracketed = true;
        } else if (inside) {
            angle = fold(angle, c);
        } else if (!isspace(c)) {
            whole = fold(whole, c);
        }
    }
    return bracketed ? angle : whole;
}

uint64_t imap_order_key(const char *raw, size_t length)
{
    const char *p = raw, *end = raw + length;
    while (p < end) {
        if (*p == '\n' || (*p == '\r' && p + 1 < end && p[1] == '\n'))
            return 0; /* the header ended without a From */
        if ((size_t)(end - p) > 5 && strncasecmp(p, "From:", 5) == 0)
            return address_key(p + 5, end);
        while (p < end && *p != '\n')
            p++;
        p++;
    }
    return 0;
}
