/* templates.c */
#include "notify/templates.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"

typedef struct buffer {
    char *data;
    size_t len, cap;
} buffer;

static void put(buffer *b, const char *text, size_t len)
{
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + len + 1)
            cap *= 2;
        char *grown = realloc(b->data, cap);
        if (grown == NULL)
            abort();
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, text, len);
    b->len += len;
    b->data[b->len] = '\0';
}

static void put_escaped(buffer *b, const char *text)
{
    for (const char *p = text; *p; p++) {
        switch (*p) {
        case '&': put(b, "&amp;", 5); break;
        case '<': put(b, "&lt;", 4); break;
        case '>': put(b, "&gt;", 4); break;
        case '"': put(b, "&quot;", 6); break;
        case '\'': put(b, "&#39;", 5); break;
        default: put(b, p, 1);
        }
    }
}

char *templates_escape_html(const char *text)
{
    buffer b = {0};
    put(&b, "", 0);
    put_escaped(&b, text);
    return b.data;
}

char *templates_render_text(const char *text, const templates_var *vars,
                            int count, bool html)
{
    buffer b = {0};
    put(&b, "", 0);
    const char *p = text;
    for (;;) {
        const char *open = strstr(p, "{{");
        const char *close = open ? strstr(open + 2, "}}") : NULL;
        if (open == NULL || close == NULL) {
            put(&b, p, strlen(p));
            return b.data;
        }
        put(&b, p, (size_t)(open - p));
        const char *name = open + 2;
        while (*name == ' ')
            name++;
        size_t len = (size_t)(close - name);
        while (len > 0 && name[len - 1] == ' ')
            len--;
        for (int i = 0; i < count; i++) {
            if (strlen(vars[i].name) == len &&
                strncmp(vars[i].name, name, len) == 0 && vars[i].value) {
                if (html)
                    put_escaped(&b, vars[i].value);
                else
                    put(&b, vars[i].value, strlen(vars[i].value));
                break;
            }
        }
        p = close + 2;
    }
}

char *templates_render_file(const char *name, const templates_var *vars,
                            int count, bool html)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", config_text(CONFIG_TEMPLATES), name);
    FILE *file = fopen(path, "rb");
    if (file == NULL)
        return NULL;
    buffer b = {0};
    char chunk[4096];
    size_t got;
    put(&b, "", 0);
    while ((got = fread(chunk, 1, sizeof chunk, file)) > 0)
        put(&b, chunk, got);
    bool failed = ferror(file) != 0;
    fclose(file);
    if (failed) {
        free(b.data);
        return NULL;
    }
    char *out = templates_render_text(b.data, vars, count, html);
    free(b.data);
    return out;
}
